import { EventEmitter } from 'events';
import type { ChildProcess } from 'child_process';
import { runPlugin, type RunnerDeps } from '../src/runner';

class FakeChild extends EventEmitter {
  killed: string[] = [];
  kill(signal: NodeJS.Signals): boolean {
    this.killed.push(signal);
    return true;
  }
}

function fakeDeps(stdinIsTTY: boolean) {
  const child = new FakeChild();
  const signals = new EventEmitter();
  const spawned: Array<{ command: string; args: string[]; stdio: unknown }> = [];
  const deps: RunnerDeps = {
    spawn: (command, args, options) => {
      spawned.push({ command, args, stdio: options.stdio });
      return child as unknown as ChildProcess;
    },
    execPath: '/usr/bin/node',
    signals: signals as unknown as RunnerDeps['signals'],
    stdinIsTTY,
    fileExists: () => true,
  };
  return { child, signals, spawned, deps };
}

const entry = { name: 'plugin-x', binPath: '/p/bin/x.js' };

test('spawns node with [binPath, ...args] and inherited stdio; resolves with the exit code', async () => {
  const f = fakeDeps(false);
  const done = runPlugin('x', entry, ['-i', 'a b'], f.deps);
  expect(f.spawned).toEqual([{ command: '/usr/bin/node', args: ['/p/bin/x.js', '-i', 'a b'], stdio: 'inherit' }]);
  f.child.emit('exit', 5, null);
  await expect(done).resolves.toEqual({ code: 5, signal: null });
  expect(f.signals.listenerCount('SIGINT')).toBe(0);
  expect(f.signals.listenerCount('SIGTERM')).toBe(0);
});

test.each([
  [false, 'SIGINT', ['SIGINT']],
  [false, 'SIGTERM', ['SIGTERM']],
  // In a terminal Ctrl-C already reached the plugin's process group: do not send a second one.
  [true, 'SIGINT', []],
  [true, 'SIGTERM', ['SIGTERM']],
] as const)('stdin TTY=%s: host %s -> plugin gets %j', async (tty, signal, expected) => {
  const f = fakeDeps(tty);
  const done = runPlugin('x', entry, [], f.deps);
  f.signals.emit(signal);
  expect(f.child.killed).toEqual(expected);
  f.child.emit('exit', null, 'SIGTERM');
  await expect(done).resolves.toEqual({ code: null, signal: 'SIGTERM' });
});

test('a missing bin is BIN_MISSING before anything is spawned', async () => {
  const f = fakeDeps(false);
  f.deps.fileExists = () => false;
  await expect(runPlugin('x', entry, [], f.deps)).rejects.toMatchObject({ code: 'BIN_MISSING', params: { alias: 'x' } });
  expect(f.spawned).toEqual([]);
});

test('a spawn error is SPAWN_FAILED and the signal listeners are removed', async () => {
  const f = fakeDeps(false);
  const done = runPlugin('x', entry, [], f.deps);
  f.child.emit('error', new Error('EACCES'));
  await expect(done).rejects.toMatchObject({ code: 'SPAWN_FAILED' });
  expect(f.signals.listenerCount('SIGINT')).toBe(0);
});

/**
 * How a command line run through wrappers (env, timeout, nice, …) is read: where the command
 * they run starts, and the folders `env -C` moves into. Judging the wrapped command is
 * wrappers.ts's; this part judges nothing, so the runner and git's hardening read it without
 * the program table.
 */
import { commandStart } from '../args';

/**
 * Where env's command starts, with what env's own arguments say on the way: `-C dir`,
 * `NAME=value` assignments, and `stop` for an option that makes env itself run something (`-S`)
 * or one it does not know. `start` is args.length when there is no command.
 */
export function envParts(args: readonly string[]): { start: number; chdir: string[]; assigns: string[]; stop?: string } {
  const chdir: string[] = [];
  const assigns: string[] = [];
  const walk = commandStart(args, (a, i) => {
    if (a === '-i' || a === '--ignore-environment' || a === '-' || a === '-0' || a === '--null' || a === '-v' || a === '--debug') return 0;
    if (a === '-C' || a === '--chdir') {
      chdir.push(args[i + 1] ?? '');
      return 1;
    }
    if (a === '-u' || a === '--unset') return 1;
    if (a.startsWith('--chdir=') || a.startsWith('-C')) {
      chdir.push(a.startsWith('--chdir=') ? a.slice('--chdir='.length) : a.slice(2));
      return 0;
    }
    if (
      a.startsWith('--unset=') ||
      /^-u./.test(a) ||
      a.startsWith('--default-signal') ||
      a.startsWith('--ignore-signal') ||
      a.startsWith('--block-signal')
    )
      return 0;
    if (a.startsWith('-')) return 'stop';
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      assigns.push(a);
      return 0;
    }
    return 'command';
  });
  return walk.stop === undefined ? { start: walk.start, chdir, assigns } : { start: walk.start, chdir, assigns, stop: walk.stop };
}

export interface WrapperSpec {
  /** Options that take a separate value. */
  valued: string[];
  /** Positional arguments before the command (timeout's DURATION). */
  leading: number;
  /** Options that make the wrapper itself write a file or run something else. */
  writes?: string[];
  execs?: string[];
}

export const WRAPPERS: Record<string, WrapperSpec> = {
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], leading: 1 },
  gtimeout: { valued: ['-s', '--signal', '-k', '--kill-after'], leading: 1 },
  nice: { valued: ['-n', '--adjustment'], leading: 0 },
  nohup: { valued: [], leading: 0 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'], leading: 0 },
  time: { valued: ['-f', '--format'], leading: 0, writes: ['-o', '--output', '-a', '--append'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata'], leading: 0, execs: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  setsid: { valued: [], leading: 0 },
  caffeinate: { valued: ['-t', '-w'], leading: 0 },
  unbuffer: { valued: [], leading: 0 },
  command: { valued: [], leading: 0 },
  builtin: { valued: [], leading: 0 },
  exec: { valued: ['-a'], leading: 0 },
};

/** Where a wrapper's command starts in its arguments (args.length when there is none). */
export function wrapperStart(spec: WrapperSpec, args: readonly string[]): number {
  let leading = spec.leading;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return i + 1;
    if (spec.writes?.some((w) => a === w || a.startsWith(w + '='))) {
      if (!a.includes('=')) i++;
      continue;
    }
    if (spec.valued.includes(a)) {
      i++;
      continue;
    }
    // nice -5, stdbuf -oL, timeout --preserve-status, time -p: options without a separate value.
    if (a.startsWith('-') && a.length > 1) continue;
    if (leading > 0) {
      leading--;
      continue;
    }
    return i;
  }
  return args.length;
}

/**
 * Where the command a chain of wrappers runs starts in `args` (`timeout 5 nice git log` →
 * the index of `git`; -1 when `program` is no wrapper or its arguments cannot be read), and
 * the folders `env -C` moves into on the way, in order.
 */
export function unwrapCommand(program: string, args: readonly string[]): { index: number; chdir: string[] } {
  const name = program.slice(program.lastIndexOf('/') + 1);
  let start: number;
  let chdir: string[] = [];
  if (name === 'env') {
    const parts = envParts(args);
    start = parts.stop === undefined ? parts.start : -1;
    chdir = parts.chdir;
  } else if (Object.prototype.hasOwnProperty.call(WRAPPERS, name)) {
    start = wrapperStart(WRAPPERS[name], args);
  } else {
    return { index: -1, chdir: [] };
  }
  if (start < 0 || start >= args.length) return { index: -1, chdir: [] };
  const deeper = unwrapCommand(args[start], args.slice(start + 1));
  return deeper.index < 0 ? { index: start, chdir } : { index: start + 1 + deeper.index, chdir: [...chdir, ...deeper.chdir] };
}

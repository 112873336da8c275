import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { getEventListeners } from 'events';
import { Agent } from '../src/agent/agent';
import { SessionStore } from '../src/sessions/sessions';
import { config, steppingClock } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';
import type { LlmCallOptions } from '../src/config/llm-base';

describe('abort listeners', () => {
  test('100 model calls and steps in one turn leave no listener behind on any signal', async () => {
    // Like the openai SDK: every request adds an abort listener to the signal it gets and
    // never removes it.
    const seen: number[] = [];
    const leaky = (options: LlmCallOptions) => {
      options.signal?.addEventListener('abort', () => undefined, { once: true });
      seen.push(getEventListeners(options.signal!, 'abort').length);
    };
    let calls = 0;
    const llm = fakeLlm([], (_m, options) => {
      leaky(options);
      return ++calls < 100 ? cmd({ program: 'ls', args: [] }) : chat('done');
    });
    const runner = fakeRunner();
    const create: typeof runner.create = (confirm) => {
      const inner = runner.create(confirm);
      return {
        ...inner,
        run: (step, options) => {
          options?.signal?.addEventListener('abort', () => undefined);
          seen.push(getEventListeners(options!.signal!, 'abort').length);
          return inner.run(step, options);
        },
      };
    };
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const agent = new Agent(
        { config: config({ maxAutoStepsPerTurn: 200 }), systemPrompt: 'S', cwd: '/work', lang: 'en' },
        { llm, createRunner: create, now: steppingClock() },
      );
      const external = new AbortController();
      const result = await agent.send('go', { signal: external.signal });
      expect(result.outcome).toBe('answered');
      expect(result.steps).toBeGreaterThanOrEqual(80);
      expect(getEventListeners(external.signal, 'abort')).toHaveLength(0);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.removeListener('warning', onWarning);
    }
    expect(seen).toHaveLength(llm.calls.length + runner.runs.length);
    expect(Math.max(...seen)).toBeLessThanOrEqual(2);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  test('aborting the turn still reaches the running call', async () => {
    const external = new AbortController();
    const llm = fakeLlm([], (_m, options) => {
      external.abort();
      return options.signal?.aborted ? { ok: false, code: 'ABORTED', message: 'aborted', notFound: false } : chat('too late');
    });
    const agent = new Agent(
      { config: config(), systemPrompt: 'S', cwd: '/work', lang: 'en' },
      { llm, createRunner: fakeRunner().create, now: steppingClock() },
    );
    expect((await agent.send('go', { signal: external.signal })).outcome).toBe('aborted');
  });
});

describe('the step limit', () => {
  test('steps of the reply that hit the limit are recorded as not run, not as done', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-limit-'));
    try {
      const store = new SessionStore(dir);
      const llm = fakeLlm([], () => cmd({ program: 'ls', args: [] }, { program: 'pwd', args: [] }));
      const runner = fakeRunner();
      const agent = new Agent(
        { config: config({ maxAutoStepsPerTurn: 1 }), systemPrompt: 'S', cwd: '/work', lang: 'en' },
        { llm, createRunner: runner.create, store, now: steppingClock() },
      );
      const result = await agent.send('loop');
      expect(result.outcome).toBe('step_limit');
      expect(runner.runs).toHaveLength(2);
      const { records } = store.read(agent.sessionId);
      const tools = records.filter((r) => r.t === 'tool').map((r) => JSON.parse((r as { content: string }).content));
      expect(tools).toHaveLength(4);
      expect(tools.slice(0, 2).map((x) => x.status)).toEqual([undefined, undefined]);
      expect(tools.slice(2)).toEqual([
        expect.objectContaining({ id: 'cmd_003', status: 'declined', reason: 'not run: step limit' }),
        expect.objectContaining({ id: 'cmd_004', status: 'declined', reason: 'not run: step limit' }),
      ]);
      // After `continue` the model sees the unrun steps before the continue event.
      await agent.continue();
      const sent = llm.calls[2].map((m) => m.content).join('\n');
      expect(sent).toMatch(/not run: step limit[\s\S]*"_event":"continue"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a full disk', () => {
  /** A session store whose writes fail the way a full disk fails them (ENOSPC), after `okWrites` good ones. */
  function fullDiskStore(dir: string, okWrites: number): SessionStore {
    const store = new SessionStore(dir);
    const appendText = store.appendText.bind(store);
    let writes = 0;
    store.appendText = (id, text) => {
      if (++writes > okWrites) throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
      appendText(id, text);
    };
    return store;
  }

  test('a session that cannot be saved keeps the conversation going, says so once, and the saved part reads back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-full-'));
    try {
      const store = fullDiskStore(dir, 2);
      const llm = fakeLlm([cmd({ program: 'ls', args: [] }), chat('done'), chat('second answer')]);
      const agent = new Agent(
        { config: config(), systemPrompt: 'S', cwd: '/work', lang: 'en' },
        { llm, createRunner: fakeRunner().create, store, now: steppingClock() },
      );
      const logs: Array<{ code: string; message: string }> = [];
      agent.on((e) => {
        if (e.type === 'log') logs.push(e);
      });
      expect((await agent.send('first')).outcome).toBe('answered');
      expect((await agent.send('again')).outcome).toBe('answered');
      const notSaved = logs.filter((l) => l.code === 'session_not_saved');
      expect(notSaved).toHaveLength(1);
      expect(notSaved[0].message).toMatch(/no space left|ENOSPC/i);
      expect(notSaved[0].message).toMatch(/free|space/i);
      // What was written before the disk filled up is still a valid session.
      // (The first turn's lines went out together after the meta line; the second turn's did not.)
      const { records, skipped } = store.read(agent.sessionId);
      expect(skipped).toBe(0);
      expect(records[0].t).toBe('meta');
      const users = records.filter((r) => r.t === 'user').map((r) => (r as { content: string }).content);
      expect(users).toEqual(['first']);
      // The model still saw the whole conversation.
      expect(llm.calls[2].map((m) => m.content).join('\n')).toContain('first');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an audit line that cannot be written does not stop the step, and is said once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-full-audit-'));
    try {
      const auditFile = path.join(dir, 'audit.jsonl');
      fs.mkdirSync(auditFile); // a folder where the file should be: every append fails (EISDIR)
      const llm = fakeLlm([cmd({ program: 'ls', args: [] }, { program: 'pwd', args: [] }), chat('done')]);
      const runner = fakeRunner();
      const agent = new Agent(
        { config: config(), systemPrompt: 'S', cwd: '/work', lang: 'zh' },
        { llm, createRunner: runner.create, auditFile, now: steppingClock() },
      );
      const logs: Array<{ code: string; message: string }> = [];
      agent.on((e) => {
        if (e.type === 'log') logs.push(e);
      });
      expect((await agent.send('go')).outcome).toBe('answered');
      expect(runner.runs).toHaveLength(2);
      const notSaved = logs.filter((l) => l.code === 'audit_not_saved');
      expect(notSaved).toHaveLength(1);
      expect(notSaved[0].message).toContain(auditFile);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

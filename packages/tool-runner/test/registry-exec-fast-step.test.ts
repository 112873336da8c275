import { builtinRegistry, createToolRegistry } from '../src/registry';
import { fastExecStep } from '../src/registry/exec-fast-step';

// The exec fast path (registry/exec-fast-step.ts) must give exactly what the exec schema gives:
// the same steps accepted, the same output (fields, their order, defaults, copies), and every
// other input left to the schema (so its errors are the schema's). Deterministic inputs.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ABSENT = Symbol('absent');
const FIELDS: Record<string, unknown[]> = {
  tool: [ABSENT, ABSENT, 'exec', 'exec', undefined, 'fs.read', 'nope', 1, null],
  program: ['git', 'ls', '', ' ', 'gіt', undefined, 1, null, ['git'], ABSENT],
  args: [ABSENT, [], ['status'], ['-n', '5', 'a'], undefined, null, 'status', [1], [undefined], [null], ['a', 2], { 0: 'a' }],
  cwd: [ABSENT, ABSENT, undefined, null, '', 'sub', 3, {}, false],
  timeoutMs: [ABSENT, ABSENT, undefined, 1, 5000, 0, -1, 1.5, NaN, Infinity, 2 ** 60, '5', null],
  requires: [ABSENT, ABSENT, undefined, {}, { confirm: true }, { write: true, confirm: undefined }, { elevated: false, network: true, write: false, confirm: false }, { confirm: 'yes' }, { other: true }, null, [], true],
  extra: [ABSENT, ABSENT, ABSENT, ABSENT, 1, undefined],
};

const USUAL: Record<string, unknown[]> = {
  tool: [ABSENT, 'exec'],
  program: ['git', 'rm'],
  args: [ABSENT, ['status'], []],
  cwd: [ABSENT, 'sub', null],
  timeoutMs: [ABSENT, 1000],
  requires: [ABSENT, { confirm: false, write: true }],
  extra: [ABSENT],
};

function build(rand: () => number): Record<string, unknown> {
  const step: Record<string, unknown> = {};
  const keys = Object.keys(FIELDS);
  // Fields in a shuffled order: the output's order must not depend on the input's.
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  for (const k of keys) {
    // Half the time a usual value (so many steps are valid), else any value of the field's list.
    const options = rand() < 0.5 ? USUAL[k] : FIELDS[k];
    const v = options[Math.floor(rand() * options.length)];
    if (v !== ABSENT) step[k] = Array.isArray(v) ? [...v] : v && typeof v === 'object' ? { ...v } : v;
  }
  return step;
}

test('the exec fast path accepts and outputs exactly what the schema does', () => {
  const rand = rng(20261127);
  const schema = builtinRegistry().stepSchema();
  let fast = 0;
  for (let n = 0; n < 5000; n++) {
    const step = build(rand);
    const viaSchema = schema.safeParse(step);
    const quick = fastExecStep(step);
    if (quick) {
      fast++;
      expect(viaSchema.success).toBe(true);
      expect(quick).toStrictEqual(viaSchema.data);
      expect(Object.keys(quick)).toEqual(Object.keys(viaSchema.data as object));
      const r = (quick as { requires?: object }).requires;
      if (r) expect(Object.keys(r)).toEqual(Object.keys((viaSchema.data as { requires: object }).requires));
      // A copy, like the schema's: changing the input later does not change the step judged.
      if (Array.isArray(step.args)) expect(quick.args).not.toBe(step.args);
    }
    // What validate answers is the schema's answer, fast path or not.
    const checked = builtinRegistry().validate(step);
    expect(checked.ok).toBe(viaSchema.success);
    if (checked.ok) expect(checked.step).toStrictEqual(viaSchema.data);
  }
  // The table reaches the fast path often and the schema often.
  expect(fast).toBeGreaterThan(500);
  expect(fast).toBeLessThan(4900);
});

test('objects the fast path leaves to the schema', () => {
  expect(fastExecStep(Object.assign(Object.create({ inherited: 1 }), { program: 'git' }))).toBeUndefined();
  expect(fastExecStep({ program: 'git', args: Object.assign(Object.create(Array.prototype), { length: 0 }) })).toBeUndefined();
  expect(fastExecStep({ tool: undefined, program: 'git' })).toBeUndefined();
  expect(fastExecStep({ program: 'git', requires: { confirm: true, extra: 1 } })).toBeUndefined();
  expect(fastExecStep({ program: 'git', args: ['a'] })).toEqual({ program: 'git', args: ['a'], tool: 'exec' });
});

test('a registry with added tools still validates exec steps the schema way', () => {
  const reg = createToolRegistry();
  expect(reg.validate({ program: 'git', args: ['status'] })).toEqual({ ok: true, step: { program: 'git', args: ['status'], tool: 'exec' } });
  expect(reg.validate({ program: '', args: [] })).toEqual({ ok: false, error: expect.stringContaining('exec.program') });
});

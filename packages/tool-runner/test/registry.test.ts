import { z } from 'zod';
import { BUILTIN_TOOL_NAMES } from '@holic512/testkit';
import {
  builtinRegistry,
  createToolRegistry,
  createToolRunner,
  getTool,
  RequiresSchema,
  toolJsonSchema,
  tools,
  type ConfirmRequest,
  type ToolDefinition,
} from '../src';
import { finding } from '../src/policy/finding';

/** A sibling plugin's own tool: looks up the weather for a city, L0 for a known city, L1 otherwise, L2 for "secret". */
interface WeatherStep {
  tool: 'weather.lookup';
  city: string;
  days?: number;
}
const ran: WeatherStep[] = [];
const weather: ToolDefinition<WeatherStep> = {
  name: 'weather.lookup',
  description: { en: 'Look up the weather of a city.', zh: '查询一个城市的天气。' },
  input: z.object({ city: z.string().min(1), days: z.number().int().min(1).max(7).optional(), requires: RequiresSchema }),
  example: { city: 'Beijing' },
  permission: { arg: 'name', subject: (s) => ({ kind: 'name', name: s.city }) },
  assess(s) {
    if (s.city === 'secret')
      return {
        findings: [finding('step.invalid', 'L2', { e: 'no secret cities' })],
        touches: { read: [], write: [], network: [], exec: [] },
      };
    const level = s.city === 'Beijing' ? 'L0' : 'L1';
    return {
      findings: [finding('read.only', level, { p: 'weather' })],
      touches: { read: [], write: [], network: ['weather.example'], exec: [] },
    };
  },
  approvalKey: (s) => `weather ${s.city}`,
  digest: (s) => `weather ${s.city}${s.days ? ` (${s.days} days)` : ''}`,
  async execute(s, ctx) {
    ran.push(s);
    return {
      _event: 'tool_result',
      id: ctx.id,
      tool: 'weather.lookup',
      status: 'applied',
      summary: `${s.city}: sunny`,
      changes: [],
      file: '',
      decision: ctx.decision,
    } as never;
  },
};

test('the built-in tools, each with zh and en descriptions and a JSON Schema generated from zod', () => {
  expect(tools.map((t) => t.name)).toEqual(BUILTIN_TOOL_NAMES);
  expect(getTool('fs.edit')?.confirmsInside).toBe(true);
  expect(toolJsonSchema('exec')).toMatchObject({
    type: 'object',
    properties: { program: { type: 'string', minLength: 1 }, args: { type: 'array' } },
    required: ['program'],
  });
  expect(toolJsonSchema('proc.status')).toMatchObject({ properties: { wait_ms: { maximum: 60000 } } });
  expect(toolJsonSchema('nope')).toBeUndefined();
});

test('registries: a name is registered once, malformed definitions are refused, the built-in one is read-only', () => {
  const reg = createToolRegistry([weather]);
  expect(reg.get('weather.lookup')).toBe(weather);
  expect(() => reg.register(weather)).toThrow('already registered');
  expect(() => reg.register({ ...weather, name: 'bad name' })).toThrow('not a usable tool name');
  expect(() => reg.register({ ...weather, name: 'w2', execute: undefined as never })).toThrow('execute must be a function');
  expect(() => builtinRegistry().register({ ...weather, name: 'w3' })).toThrow('read-only');
  expect(builtinRegistry().get('weather.lookup')).toBeUndefined();
  expect(reg.validate({ tool: 'weather.lookup', city: '' })).toEqual({ ok: false, error: expect.stringContaining('city') });
  expect(reg.validate({ tool: 'weather.lookup', city: 'Oslo', days: 3 })).toEqual({
    ok: true,
    step: { tool: 'weather.lookup', city: 'Oslo', days: 3 },
  });
  expect(reg.validate({ tool: 'nope' })).toEqual({ ok: false, error: expect.stringContaining('unknown tool "nope"') });
  expect(reg.jsonSchema('weather.lookup')).toMatchObject({ properties: { city: { type: 'string' }, days: { maximum: 7 } } });
});

test('a sibling plugin registers its own tool: judged, asked, run and allowed for the session the same way', async () => {
  ran.length = 0;
  const asked: ConfirmRequest[] = [];
  const runner = createToolRunner({
    cwd: '/w',
    lang: 'en',
    tools: [weather],
    confirm: (r) => {
      asked.push(r);
      return { action: 'allow-session' };
    },
  });
  expect(runner.tools.get('weather.lookup')).toBe(weather);
  expect(runner.describe({ tool: 'weather.lookup', city: 'Oslo', days: 2 } as never)).toBe('weather Oslo (2 days)');
  expect(runner.judge({ tool: 'weather.lookup', city: 'Beijing' } as never).level).toBe('L0');
  expect(await runner.run({ tool: 'weather.lookup', city: 'Beijing' } as never)).toMatchObject({
    summary: 'Beijing: sunny',
    decision: { level: 'L0', by: 'policy' },
  });
  expect(asked).toHaveLength(0);
  expect(await runner.run({ tool: 'weather.lookup', city: 'Oslo' } as never)).toMatchObject({
    summary: 'Oslo: sunny',
    decision: { level: 'L1', by: 'user' },
  });
  expect(asked.map((r) => r.sessionKey)).toEqual(['weather Oslo']);
  // allowed for the session now: no second question
  expect(await runner.run({ tool: 'weather.lookup', city: 'Oslo' } as never)).toMatchObject({ decision: { level: 'L0', by: 'user' } });
  expect(asked).toHaveLength(1);
  // `requires` raises it like any tool; L2 is refused; malformed input is blocked with what was expected
  expect(runner.judge({ tool: 'weather.lookup', city: 'Beijing', requires: { confirm: true } } as never).level).toBe('L1');
  expect(await runner.run({ tool: 'weather.lookup', city: 'secret' } as never)).toMatchObject({
    status: 'blocked',
    decision: { level: 'L2' },
  });
  expect(await runner.run({ tool: 'weather.lookup', days: 9 } as never)).toMatchObject({
    status: 'blocked',
    decision: { rules: [{ id: 'step.invalid' }] },
  });
  expect(ran.map((s) => s.city)).toEqual(['Beijing', 'Oslo', 'Oslo']);
});

describe('run() reuses the judgement judge() just made of the same step object, until the event loop turns', () => {
  /** weather.lookup whose assess counts its calls; "Oslo" is L0 while `calm` holds, L1 otherwise. */
  function counting() {
    const state = { assessed: 0, calm: true };
    const def: ToolDefinition<WeatherStep> = {
      ...weather,
      assess(s) {
        state.assessed++;
        return {
          findings: [finding('read.only', s.city === 'Oslo' && state.calm ? 'L0' : 'L1', { p: 'weather' })],
          touches: { read: [], write: [], network: [], exec: [] },
        };
      },
    };
    const asked: ConfirmRequest[] = [];
    const runner = createToolRunner({ cwd: '/w', lang: 'en', tools: [def], confirm: (r) => (asked.push(r), { action: 'decline' }) });
    return { state, runner, asked };
  }
  const oslo = () => ({ tool: 'weather.lookup', city: 'Oslo' }) as never;
  const nextTurn = () => new Promise((r) => setImmediate(r));

  test('judged to be shown, then run at once: judged once', async () => {
    const { state, runner } = counting();
    const step = oslo();
    expect(runner.judge(step).level).toBe('L0');
    expect(await runner.run(step)).toMatchObject({ summary: 'Oslo: sunny', decision: { level: 'L0' } });
    expect(state.assessed).toBe(1);
  });

  test('after a turn of the event loop the step is judged again, as things are then', async () => {
    const { state, runner, asked } = counting();
    const step = oslo();
    expect(runner.judge(step).level).toBe('L0');
    await nextTurn();
    state.calm = false; // something changed meanwhile (a file, a hook's work)
    expect(await runner.run(step)).toMatchObject({ status: 'declined', decision: { level: 'L1' } });
    expect(asked).toHaveLength(1);
    expect(state.assessed).toBe(2);
  });

  test('another object with the same content, a mode switched in between, or a second run: judged again', async () => {
    const { state, runner } = counting();
    const step = oslo();
    runner.judge(step);
    await runner.run(oslo());
    expect(state.assessed).toBe(2);
    state.calm = false;
    expect(runner.judge(step).level).toBe('L1');
    expect(runner.setMode('plan')).toEqual({ ok: true });
    // Judged again in plan mode, which refuses what is not read-only (the kept judgement would ask).
    expect(await runner.run(step)).toMatchObject({ status: 'blocked' });
    expect(state.assessed).toBe(4);
    runner.setMode('default');
    state.calm = true;
    runner.judge(step);
    await runner.run(step);
    await runner.run(step);
    expect(state.assessed).toBe(6);
  });
});

test('every built-in tool says what its question shows: a title and its own fields, from the step alone', () => {
  const { builtinRegistry } = require('../src/registry') as typeof import('../src/registry');
  for (const def of builtinRegistry().tools) {
    const step = builtinRegistry().validate({ ...def.example, tool: def.name });
    expect([def.name, step.ok]).toEqual([def.name, true]);
    if (!step.ok) continue;
    const summary = def.summary?.(step.step);
    expect([def.name, typeof summary?.title]).toEqual([def.name, 'string']);
    // A field is one of the step's own arguments, or a fact about one (http.get's host).
    const own = new Set([...Object.keys(def.input.shape), 'host']);
    for (const field of summary!.fields) expect([def.name, own.has(field.name)]).toEqual([def.name, true]);
  }
});

describe('built-in input schemas are built on first use', () => {
  test('each built-in tool has a zod object input, the same object every time', () => {
    for (const def of tools) {
      const first = def.input;
      expect(first).toBeInstanceOf(z.ZodObject);
      expect(def.input).toBe(first);
    }
  });

  test('a registry of the built-ins builds no input schema until a step is checked', () => {
    const script = `
      const counted = [];
      const od = Object.defineProperty;
      Object.defineProperty = function (o, k, d) { if (k === '_zod') counted.push(1); return od(o, k, d); };
      require('zod');
      const before = counted.length;
      const tr = require(${JSON.stringify(require('path').join(__dirname, '../lib/registry/index.js'))});
      const reg = tr.createToolRegistry();
      const afterRegistry = counted.length;
      reg.validate({ program: 'ls', args: ['-la'], tool: 'fs.read' });
      process.stdout.write(JSON.stringify({ before, afterRegistry, afterValidate: counted.length }));`;
    // lib/ (the built package): what a process loading tool-runner runs.
    const out = require('child_process').execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const n = JSON.parse(out) as { before: number; afterRegistry: number; afterValidate: number };
    // Only common.ts's shared pieces (requires, argument lists): the tools' own inputs were about 170 more.
    expect(n.afterRegistry - n.before).toBeLessThan(25);
    expect(n.afterValidate).toBeGreaterThan(n.afterRegistry);
  });
});

test('an input given as a getter is checked when first read: a bad one fails the step schema, not register', () => {
  const bad = { ...weather, name: 'weather.bad' } as ToolDefinition<WeatherStep>;
  Object.defineProperty(bad, 'input', { get: () => ({ not: 'zod' }), enumerable: true });
  const reg = createToolRegistry([bad]);
  expect(() => reg.stepSchema()).toThrow('tool weather.bad: input must be a zod object schema');
  expect(() => reg.jsonSchema('weather.bad')).toThrow('tool weather.bad: input must be a zod object schema');
  // A plain property is checked at once, as before.
  expect(() =>
    createToolRegistry([{ ...weather, name: 'weather.plain', input: { not: 'zod' } } as unknown as ToolDefinition<WeatherStep>]),
  ).toThrow('input must be a zod object schema');
});

test('a registry limited by `only` (a sub-agent) has those tools alone: the others, built-in or joining later, are refused with why', async () => {
  const reg = createToolRegistry([weather], {
    only: (def) => ['fs.read', 'fs.grep', 'weather.lookup'].includes(def.name),
    withheldNote: 'agent "reviewer" may use only its listed tools',
  });
  expect(reg.tools.map((t) => t.name)).toEqual(['fs.read', 'fs.grep', 'weather.lookup']);
  expect(reg.get('fs.write')).toBeUndefined();
  expect(reg.validate({ tool: 'fs.write', path: 'a', content: 'x' })).toEqual({
    ok: false,
    error:
      'tool "fs.write" is not available here (agent "reviewer" may use only its listed tools) (known: fs.read, fs.grep, weather.lookup)',
  });
  expect(reg.validate({ program: 'ls' })).toMatchObject({ ok: false, error: expect.stringContaining('tool "exec" is not available here') });
  expect(reg.validate({ tool: 'nope' })).toMatchObject({ ok: false, error: expect.stringMatching(/^unknown tool "nope"/) });
  // A tool offered later (an MCP server connecting) is left out too, and again without an error.
  const joining = { ...weather, name: 'mcp.files.write_file' } as ToolDefinition<WeatherStep>;
  reg.register(joining);
  reg.register(joining);
  expect(reg.get('mcp.files.write_file')).toBeUndefined();
  // The runner of such a registry never runs a withheld tool, whatever it is asked.
  const runner = createToolRunner({ toolRegistry: reg, confirm: async () => ({ action: 'run' }), cwd: process.cwd(), lang: 'en' });
  expect(await runner.run({ tool: 'fs.write', path: 'never.txt', content: 'x' })).toMatchObject({ status: 'blocked' });
  runner.dispose();
  expect(createToolRegistry().tools.length).toBe(tools.length);
});

test('every built-in tool says what kind of thing it does (how an editor shows its steps)', () => {
  const kinds = Object.fromEntries(tools.map((t) => [t.name, t.kind]));
  expect(kinds).toEqual({
    exec: 'execute',
    'plugin.run': 'execute',
    'config.json_patch': 'edit',
    'fs.read': 'read',
    'fs.edit': 'edit',
    'fs.write': 'edit',
    'fs.glob': 'search',
    'fs.grep': 'search',
    'http.get': 'fetch',
    'web.search': 'fetch',
    'proc.start': 'execute',
    'proc.status': 'read',
    'proc.kill': 'execute',
    'plan.update': 'think',
  });
});

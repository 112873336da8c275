import fc from 'fast-check';
import { z } from 'zod';
import { createToolRunner, tools, toolJsonSchema, validateStep } from '@holic512/tool-runner';
import { BUILTIN_TOOL_NAMES } from '@holic512/testkit';
import { parseReply } from '../src/context/protocol';

// The contract between plugin-ai and tool-runner: for every registered tool, the protocol
// validation in plugin-ai (parseReply of a cmd reply) and the runner's (validateStep, and what
// runner.run blocks as malformed) accept and reject exactly the same steps.

type Validator = (step: unknown) => boolean;
const pluginAi: Validator = (step) => parseReply({ type: 'cmd', message: 'm', data: { cwd: null, commands: [step] } }).success;
const runnerSide: Validator = (step) => validateStep(step) === undefined;

/** A value of any JSON-ish shape, biased to the edge cases that validations disagree on. */
const anyValue = fc.oneof(
  {
    arbitrary: fc.constantFrom('', ' ', 'git', 'src/a.ts', 'https://example.com', 'proc_1', 0, -1, 1.5, 60001, true, [], ['x', 1]),
    weight: 6,
  },
  fc.string(),
  fc.integer({ min: -5, max: 70000 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.boolean()), { maxKeys: 3 }),
);

/** Steps for one tool: its own fields (from its JSON Schema) present or not, with any values, plus stray keys. */
function stepsOf(name: string): fc.Arbitrary<Record<string, unknown>> {
  const schema = toolJsonSchema(name) as { properties?: Record<string, unknown> };
  const keys = Object.keys(schema.properties ?? {});
  const example = tools.find((t) => t.name === name)!.example;
  const fields = fc.record(Object.fromEntries(keys.map((k) => [k, anyValue])), { requiredKeys: [] });
  // Near-valid: the tool's own example with one field removed or replaced.
  const nearValid = fc.tuple(fc.constantFrom(...keys), anyValue, fc.boolean()).map(([key, value, drop]) => {
    const step: Record<string, unknown> = { tool: name, ...example };
    if (drop) delete step[key];
    else step[key] = value;
    return step;
  });
  return fc.oneof(
    fc.constant({ tool: name, ...example }),
    { arbitrary: nearValid, weight: 4 },
    fields.map((f) => ({ tool: name, ...f })),
    fc
      .tuple(fields, fc.dictionary(fc.string({ maxLength: 6 }), anyValue, { maxKeys: 2 }))
      .map(([f, extra]) => ({ ...extra, tool: name, ...f })),
    fields.map((f) => (name === 'exec' ? { ...f } : { tool: name, ...f })),
  );
}

const anyStep = fc.oneof(...tools.map((t) => stepsOf(t.name)), anyValue, fc.record({ tool: fc.string() }));

test('every built-in tool is registered with a description in both languages and a JSON Schema', () => {
  expect(tools.map((t) => t.name)).toEqual(BUILTIN_TOOL_NAMES);
  for (const t of tools) {
    expect(t.description.zh.length).toBeGreaterThan(5);
    expect(t.description.en.length).toBeGreaterThan(5);
    expect(toolJsonSchema(t.name)).toMatchObject({ type: 'object', properties: expect.any(Object) });
    // the prompt's example is itself a valid step
    expect([t.name, runnerSide({ tool: t.name, ...t.example })]).toEqual([t.name, true]);
  }
});

describe.each(tools.map((t) => [t.name]))('%s: plugin-ai and the runner accept and reject exactly the same steps', (name) => {
  test('near-valid, arbitrary and stray-key inputs', () => {
    fc.assert(
      fc.property(stepsOf(name), (step) => {
        expect(pluginAi(step)).toBe(runnerSide(step));
      }),
      { numRuns: 1000, seed: 20261124 },
    );
  });
});

test('any value at all as a step', () => {
  fc.assert(
    fc.property(anyStep, (step) => expect(pluginAi(step)).toBe(runnerSide(step))),
    { numRuns: 2000, seed: 11 },
  );
});

test('what the runner blocks as malformed is what plugin-ai rejects', async () => {
  const runner = createToolRunner({ cwd: '/nonexistent-workspace', confirm: () => ({ action: 'decline' }), lang: 'en' });
  await fc.assert(
    fc.asyncProperty(anyStep, async (step) => {
      const decision = runner.judge(step as never);
      const malformed = decision.rules.some((r) => r.id === 'step.invalid');
      expect(malformed).toBe(!pluginAi(step));
    }),
    { numRuns: 500, seed: 7 },
  );
});

test('the property finds a drift: a copy of one schema that lets an empty program through', () => {
  const drifted: Validator = (step) => {
    const s = step as { tool?: unknown; program?: unknown };
    if (s && typeof s === 'object' && (s.tool === 'exec' || s.tool === undefined) && s.program === '') {
      return z.object({ program: z.string(), args: z.array(z.string()).optional() }).safeParse(step).success;
    }
    return runnerSide(step);
  };
  const result = fc.check(
    fc.property(stepsOf('exec'), (step) => pluginAi(step) === drifted(step)),
    { numRuns: 1000, seed: 20261124 },
  );
  expect(result.failed).toBe(true);
});

import { z } from 'zod';
import { createToolRegistry, defineTool, RequiresSchema } from '../src';

interface NoteStep {
  tool: 'note.add';
  text: string;
}

/** A plugin's tool written with defineTool; `built` counts how often its schema is made. */
function noteTool() {
  let built = 0;
  const def = defineTool<NoteStep>({
    name: 'note.add',
    description: { en: 'Add a note.', zh: '添加一条笔记。' },
    input: () => {
      built++;
      return z.object({ text: z.string().min(1), requires: RequiresSchema });
    },
    example: { text: 'buy milk' },
    permission: { arg: 'words', subject: () => ({ kind: 'none' }) },
    assess: () => ({ findings: [], touches: { read: [], write: [], network: [], exec: [] } }),
    approvalKey: () => 'note.add',
    digest: (s) => `note ${s.text}`,
    execute: async () => {
      throw new Error('not run here');
    },
  });
  return { def, built: () => built };
}

test('defineTool: the schema is built when `input` is first read, once, and the definition keeps its keys in order', () => {
  const { def, built } = noteTool();
  expect(built()).toBe(0);
  expect(Object.keys(def)).toEqual(['name', 'description', 'input', 'example', 'permission', 'assess', 'approvalKey', 'digest', 'execute']);
  const first = def.input;
  expect(first).toBeInstanceOf(z.ZodObject);
  expect(def.input).toBe(first);
  expect(built()).toBe(1);
});

test('defineTool: a registry takes the definition without building its schema, and checks steps with it', () => {
  const { def, built } = noteTool();
  const registry = createToolRegistry([def]);
  expect(built()).toBe(0);
  expect(registry.validate({ tool: 'note.add', text: 'hi' })).toEqual({ ok: true, step: { tool: 'note.add', text: 'hi' } });
  expect(registry.validate({ tool: 'note.add', text: '' })).toMatchObject({ ok: false, error: expect.stringContaining('text') });
  expect(registry.jsonSchema('note.add')).toMatchObject({ properties: { text: { type: 'string' } }, required: ['text'] });
  expect(built()).toBe(1);
});

/**
 * The `skill.load` tool: the system prompt carries only the skills' index; the model loads one
 * skill's body when a task matches (L0: it reads a SKILL.md of the user's or the project's skill
 * folders). Files the skill names are read with fs.read and its scripts run through exec, judged
 * as always. A ToolDefinition of tool-runner's registry, like a sibling plugin's own tool.
 */
import { z } from 'zod';
import type { AnyToolDefinition } from '@holic512/tool-runner';
import { loadSkillBody, type Skill } from './skills';

/** At most this much of a skill's body goes to the model (a larger one is cut, and says so). */
const MAX_BODY_CHARS = 24_000;

export function skillLoadTool(skills: readonly Skill[]): AnyToolDefinition {
  const byName = new Map(skills.map((s) => [s.name, s]));
  return {
    name: 'skill.load',
    description: {
      en: 'Load one skill of the index (its instructions and the folder its files are in).',
      zh: '加载技能索引中的一个技能(其说明及其文件所在的目录)。',
    },
    input: z.object({ name: z.string().min(1) }),
    example: { name: skills[0]?.name ?? 'pdf' },
    permission: { arg: 'name', subject: (s: { name: string }) => ({ kind: 'name', name: s.name }) },
    assess: (s: { name: string }) => ({
      findings: [{ id: 'read.only', level: 'L0' as const, params: { p: `skill.load ${s.name}` } }],
      touches: { read: byName.has(s.name) ? [byName.get(s.name)!.file] : [], write: [], network: [], exec: [] },
    }),
    approvalKey: (s: { name: string }) => `skill.load ${s.name}`,
    digest: (s: { name: string }) => `load skill ${s.name}`,
    execute: async (s: { name: string }, ctx: { id: string; decision: unknown }) => {
      const skill = byName.get(s.name);
      const base = { _event: 'tool_result', id: ctx.id, tool: 'skill.load', decision: ctx.decision };
      if (!skill) return { ...base, status: 'error', error: { code: 'UNKNOWN_SKILL', message: `no skill "${s.name}"; the index lists: ${[...byName.keys()].join(', ') || '(none)'}` } };
      const { name, dir, body } = loadSkillBody(skill);
      const cut = body.length > MAX_BODY_CHARS;
      return { ...base, name, dir, body: cut ? body.slice(0, MAX_BODY_CHARS) : body, ...(cut ? { truncated: true } : {}) };
    },
  } as unknown as AnyToolDefinition;
}

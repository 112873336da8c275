/**
 * The `skill.load` tool: the system prompt carries only the skills' index; the model loads one
 * skill's body when a task matches (L0: it reads a SKILL.md of the user's or a trusted project's
 * skill folders), and with `file` / `offset` the other files of that folder and the rest of a
 * long body (Anthropic's `claude-api` SKILL.md is 74 KB). Its scripts run through exec, judged
 * as always (a script inside a skill folder is asked about, L1). A ToolDefinition of
 * tool-runner's registry, like a sibling plugin's own tool.
 */
import fs = require('fs');
import path = require('path');
import { z } from 'zod';
import type { AnyToolDefinition, ClaudeCodeForm } from '@holic512/tool-runner';
import { loadSkillBody, type Skill } from './skills';

/** At most this much of a body goes to the model at once; the result says where to read on. */
const MAX_CHARS = 24_000;
/** At most this many lines at once (as fs.read). */
const MAX_LINES = 2000;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

interface LoadStep {
  name: string;
  file?: string;
  offset?: number;
}

/** Numbered lines from `start` (1-based) within the caps, as fs.read shows them. */
function numbered(lines: readonly string[], start: number, firstNumber: number): { content: string; end: number } {
  const out: string[] = [];
  let size = 0;
  let i = start;
  for (; i < lines.length && out.length < MAX_LINES; i++) {
    const line = `${i + firstNumber}\t${lines[i]}`;
    if (out.length && size + line.length + 1 > MAX_CHARS) break;
    out.push(line.length > MAX_CHARS ? line.slice(0, MAX_CHARS) : line);
    size += line.length + 1;
  }
  return { content: out.join('\n'), end: i };
}

/** The skill file `rel` (default SKILL.md), only when it stays inside the skill's folder. */
function skillFile(skill: Skill, rel: string | undefined): { file: string } | { error: string } {
  if (!rel) return { file: skill.file };
  const file = path.resolve(skill.dir, rel);
  try {
    const real = fs.realpathSync(file);
    const root = fs.realpathSync(skill.dir);
    const inside = path.relative(root, real);
    if (!inside || inside.startsWith('..') || path.isAbsolute(inside)) return { error: `"${rel}" is not inside the skill's folder` };
    const st = fs.statSync(real);
    if (!st.isFile() || st.size > MAX_FILE_BYTES)
      return { error: `"${rel}" is not a text file of the skill (at most ${MAX_FILE_BYTES / 1024 / 1024} MB)` };
    return { file: real };
  } catch {
    return { error: `no file "${rel}" in the skill's folder` };
  }
}

/** skill.load as permission rules and Claude Code know it before a session builds the tool (Claude Code's `Skill`). */
export const skillLoadNames = {
  name: 'skill.load',
  permission: { arg: 'name' as const },
  claude: {
    names: ['Skill'],
    input: (s: LoadStep) => ({ skill: s.name }),
    fromInput: (c: Record<string, unknown>) => (typeof c.skill === 'string' ? { name: c.skill } : { error: 'skill must be a string' }),
    response: (s: LoadStep) => ({ success: true, commandName: s.name }),
  } satisfies ClaudeCodeForm<LoadStep>,
};

export function skillLoadTool(skills: readonly Skill[]): AnyToolDefinition {
  const byName = new Map(skills.map((s) => [s.name, s]));
  return {
    name: skillLoadNames.name,
    kind: 'read',
    description: {
      en: 'Load one skill of the index (its instructions and the folder its files are in); "file" reads another file of that folder, "offset" (a line) reads on.',
      zh: '加载技能索引中的一个技能(其说明及其文件所在的目录);"file" 读取该目录中的其他文件,"offset"(行号)继续读取。',
    },
    input: z.object({ name: z.string().min(1), file: z.string().min(1).optional(), offset: z.number().int().positive().optional() }),
    example: { name: skills[0]?.name ?? 'pdf' },
    permission: { arg: 'name', subject: (s: LoadStep) => ({ kind: 'name', name: s.name }) },
    assess: (s: LoadStep) => {
      const skill = byName.get(s.name);
      const target = skill ? skillFile(skill, s.file) : undefined;
      return {
        findings: [{ id: 'read.only', level: 'L0' as const, params: { p: `skill.load ${s.name}${s.file ? ` ${s.file}` : ''}` } }],
        touches: { read: target && 'file' in target ? [target.file] : [], write: [], network: [], exec: [] },
      };
    },
    approvalKey: (s: LoadStep) => `skill.load ${s.name}`,
    digest: (s: LoadStep) => `load skill ${s.name}${s.file ? ` ${s.file}` : ''}`,
    execute: async (s: LoadStep, ctx: { id: string; decision: unknown }) => {
      const skill = byName.get(s.name);
      const base = { _event: 'tool_result', id: ctx.id, tool: 'skill.load', decision: ctx.decision };
      if (!skill)
        return {
          ...base,
          status: 'error',
          error: { code: 'UNKNOWN_SKILL', message: `no skill "${s.name}"; the index lists: ${[...byName.keys()].join(', ') || '(none)'}` },
        };
      const target = skillFile(skill, s.file);
      if ('error' in target) return { ...base, status: 'error', error: { code: 'NOT_IN_SKILL', message: target.error } };
      // SKILL.md: the body after the front matter, numbered as the file's own lines.
      let lines: string[];
      let first: number;
      if (!s.file) {
        const loaded = loadSkillBody(skill);
        lines = loaded.body.split('\n');
        first = loaded.firstLine;
      } else {
        lines = fs.readFileSync(target.file, 'utf8').split('\n');
        first = 1;
      }
      const start = Math.max(0, (s.offset ?? first) - first);
      const { content, end } = numbered(lines, start, first);
      const totalLines = lines.length + first - 1;
      const more = end < lines.length;
      return {
        ...base,
        name: skill.name,
        dir: skill.dir,
        path: target.file,
        content,
        startLine: start + first,
        endLine: end + first - 1,
        totalLines,
        ...(more
          ? {
              truncated: true,
              nextOffset: end + first,
              note: `showing lines ${start + first}–${end + first - 1} of ${totalLines}; read on with {"tool":"skill.load","name":"${skill.name}"${s.file ? `,"file":${JSON.stringify(s.file)}` : ''},"offset":${end + first}}`,
            }
          : {}),
      };
    },
    claude: skillLoadNames.claude,
  } as unknown as AnyToolDefinition;
}

import { z } from 'zod';
import { finding, type Finding } from '../policy/finding';
import type { FsGlobStep } from '../tool-steps';
import { nonBlank, RequiresSchema, showWord, touches, presentFields } from './common';
import { fsJudgeContext, judgedTarget, pathCharFindings, workspaceRelative } from './fs-common';
import type { Assessment, AssessContext, ToolDefinition } from './types';
import { lazy } from '../lazy';

const modFsRules = lazy(() => require('../policy/fs-rules') as typeof import('../policy/fs-rules'));
const modFsGlob = lazy(() => require('../tools/fs-glob') as typeof import('../tools/fs-glob'));

/**
 * fs.glob and fs.grep read what lies under a folder: judged by fs.read's rules on that folder
 * (L0 inside the workspace, asked outside it, refused for secret stores), links resolved first.
 */
export function searchAssess(p: string, ctx: AssessContext): Assessment {
  const { fsReadFindings } = modFsRules();
  const { target, workspace } = judgedTarget(p, ctx);
  const found: Finding[] = fsReadFindings({ workspace, home: ctx.home, slothtoolHome: ctx.slothtoolHome, target });
  const findings = [...pathCharFindings(p), ...found.map((f) => (f.id === 'fs.read' ? finding('fs.search', 'L0', { f: p }) : f))];
  return { findings, touches: touches({ read: [target.real] }) };
}

const input = z.object({
  /** A glob relative to `path`: `**` any folders, `*` within a name (`src/**\/*.ts`). */
  pattern: nonBlank('pattern'),
  /** The folder to search; default where the step runs. */
  path: z.string().optional(),
  requires: RequiresSchema,
});

export const fsGlobTool: ToolDefinition<FsGlobStep> = {
  name: 'fs.glob',
  description: {
    en: 'Find files by name: a glob relative to path (`**/*.ts`); .gitignore respected; newest first, at most 200.',
    zh: '按文件名查找文件：相对于 path 的 glob（`**/*.ts`）；遵循 .gitignore；最新修改的在前，最多 200 个。',
  },
  input,
  example: { pattern: 'src/**/*.ts' },
  permission: { arg: 'path', subject: (s, ctx) => ({ kind: 'path', path: workspaceRelative(s.path ?? '.', ctx) }) },
  judgeContext: (s, env) => fsJudgeContext(s.path ?? '.', env, false),
  assess: (s, ctx) => searchAssess(s.path ?? '.', ctx),
  approvalKey: (s) => `fs.glob ${s.path ?? '.'}`,
  digest: (s) => `glob ${showWord(s.pattern)}${s.path ? ` in ${showWord(s.path)}` : ''}`,
  summary: (s) => ({ title: `glob ${showWord(s.pattern)}${s.path ? ` in ${showWord(s.path)}` : ''}`, fields: presentFields({ pattern: s.pattern, path: s.path }) }),
  execute: (s, ctx) => modFsGlob().runFsGlob(s, ctx as never),
};

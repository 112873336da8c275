import { z } from 'zod';
import type { FsWriteStep } from '../tool-steps';
import { nonBlank, RequiresSchema, showWord, touches } from './common';
import { fsJudgeContext, judgedTarget, pathCharFindings, workspaceRelative } from './fs-common';
import type { ToolDefinition } from './types';
import { lazy } from '../lazy';

const modFsRules = lazy(() => require('../policy/fs-rules') as typeof import('../policy/fs-rules'));
const modFsEdit = lazy(() => require('../tools/fs-edit') as typeof import('../tools/fs-edit'));

const input = z.object({
  path: nonBlank('path'),
  content: z.string(),
  requires: RequiresSchema,
});

export const fsWriteTool: ToolDefinition<FsWriteStep> = {
  name: 'fs.write',
  description: {
    en: 'Create or overwrite a text file (read an existing file first); the user sees the diff first.',
    zh: '创建或覆盖一个文本文件（覆盖前须先读取它）；先向用户展示差异。',
  },
  input,
  example: { path: 'docs/new.md', content: '...' },
  confirmsInside: true,
  permission: { arg: 'path', subject: (s, ctx) => ({ kind: 'path', path: workspaceRelative(s.path, ctx) }) },
  judgeContext: (s, env) => fsJudgeContext(s.path, env, true),
  assess(s, ctx) {
    const { fsWriteFindings } = modFsRules();
    const { target, workspace } = judgedTarget(s.path, ctx);
    const findings = [...pathCharFindings(s.path), ...fsWriteFindings({ workspace, home: ctx.home, slothtoolHome: ctx.slothtoolHome, target, readState: ctx.readState }, 'fs.write')];
    return { findings, touches: touches({ write: [target.real] }) };
  },
  approvalKey: (s) => `fs.write ${s.path}`,
  digest: (s) => `write ${showWord(s.path)}`,
  summary: (s) => ({ title: `fs.write ${showWord(s.path)}`, fields: [{ name: 'path', value: s.path }, { name: 'content', value: s.content, text: true }] }),
  execute: (s, ctx) => modFsEdit().runFsWrite(s, ctx as never) as never,
};

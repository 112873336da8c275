import { z } from 'zod';
import type { FsWriteStep } from '../tool-steps';
import { nonBlank, requiresSchema, showWord } from './common';
import { assessFileWrite, fsJudgeContext, pathPermission } from './fs-common';
import type { ToolDefinition } from './types';
import { absolutePath, stringField } from './claude-code';
import { lazy } from '../lazy';
import { fsEditModule } from '../lazy-modules';

/** The input schema, built on first use (a turn that only talks builds no tool schema). */
const input = lazy(() =>
  z.object({
    path: nonBlank('path'),
    content: z.string(),
    requires: requiresSchema(),
  }),
);

export const fsWriteTool: ToolDefinition<FsWriteStep> = {
  name: 'fs.write',
  kind: 'edit',
  description: {
    en: 'Create or overwrite a text file (read an existing file first); the user sees the diff first.',
    zh: '创建或覆盖一个文本文件（覆盖前须先读取它）；先向用户展示差异。',
  },
  get input() {
    return input();
  },
  example: { path: 'docs/new.md', content: '...' },
  confirmsInside: true,
  permission: pathPermission,
  judgeContext: (s, env) => fsJudgeContext(s.path, env, true),
  assess: (s, ctx) => assessFileWrite(s.path, ctx, 'fs.write'),
  approvalKey: (s) => `fs.write ${s.path}`,
  digest: (s) => `write ${showWord(s.path)}`,
  summary: (s) => ({
    title: `fs.write ${showWord(s.path)}`,
    fields: [
      { name: 'path', value: s.path },
      { name: 'content', value: s.content, text: true },
    ],
  }),
  execute: (s, ctx) => fsEditModule().runFsWrite(s, ctx as never) as never,
  claude: {
    names: ['Write'],
    input: (s, ctx) => ({ file_path: absolutePath(s.path, ctx), content: s.content }),
    fromInput: (c) => {
      const file = stringField(c, 'file_path');
      if (typeof file !== 'string') return file;
      const content = stringField(c, 'content');
      return typeof content === 'string' ? { path: file, content } : content;
    },
    response: (s, r, ctx) => ({ type: r.created === true ? 'create' : 'update', filePath: absolutePath(s.path, ctx), content: s.content }),
  },
};

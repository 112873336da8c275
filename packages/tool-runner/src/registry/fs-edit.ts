import { z } from 'zod';
import type { FsEditStep } from '../tool-steps';
import { nonBlank, presentFields, requiresSchema, showWord } from './common';
import { assessFileWrite, fsJudgeContext, pathPermission } from './fs-common';
import type { ToolDefinition } from './types';
import { absolutePath, editFromClaude, given } from './claude-code';
import { lazy } from '../lazy';

const modFsEdit = lazy(() => require('../tools/fs-edit') as typeof import('../tools/fs-edit'));

/** The input schema, built on first use (a turn that only talks builds no tool schema). */
const input = lazy(() =>
  z.object({
    path: nonBlank('path'),
    /** Exact text to replace, unique in the file unless replace_all. */
    old_string: z.string(),
    new_string: z.string(),
    replace_all: z.boolean().optional(),
    requires: requiresSchema(),
  }),
);

export const fsEditTool: ToolDefinition<FsEditStep> = {
  name: 'fs.edit',
  kind: 'edit',
  description: {
    en: 'Replace exact text in a file (old_string must be unique unless replace_all); the user sees the diff first.',
    zh: '在文件中精确替换文本（除非 replace_all，否则 old_string 必须唯一）；先向用户展示差异。',
  },
  get input() {
    return input();
  },
  example: { path: 'src/a.ts', old_string: '<exact text, unique in the file>', new_string: '...', replace_all: false },
  confirmsInside: true,
  permission: pathPermission,
  judgeContext: (s, env) => fsJudgeContext(s.path, env, false),
  assess: (s, ctx) => assessFileWrite(s.path, ctx, 'fs.edit'),
  approvalKey: (s) => `fs.edit ${s.path}`,
  digest: (s) => `edit ${showWord(s.path)}${s.replace_all ? ' (all)' : ''}`,
  summary: (s) => ({
    title: `fs.edit ${showWord(s.path)}`,
    fields: [
      ...presentFields({ path: s.path, replace_all: s.replace_all }),
      { name: 'old_string', value: s.old_string, text: true },
      { name: 'new_string', value: s.new_string, text: true },
    ],
  }),
  execute: (s, ctx) => modFsEdit().runFsEdit(s, ctx as never) as never,
  // One replacement: a MultiEdit of one edit is the same step; the first name is what hooks read.
  claude: {
    names: ['Edit', 'MultiEdit'],
    input: (s, ctx) =>
      given({ file_path: absolutePath(s.path, ctx), old_string: s.old_string, new_string: s.new_string, replace_all: s.replace_all }),
    fromInput: editFromClaude,
    response: (s, _r, ctx) => ({
      filePath: absolutePath(s.path, ctx),
      oldString: s.old_string,
      newString: s.new_string,
      replaceAll: s.replace_all === true,
      userModified: false,
    }),
  },
};

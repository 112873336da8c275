import { z } from 'zod';
import type { FsWriteStep } from '../tool-steps';
import { nonBlank, showWord, toolInput } from './common';
import { judgedByPath } from './fs-common';
import { defineTool } from './define-tool';
import { absolutePath, stringField } from './claude-code';
import { fsEditModule } from '../lazy-modules';

const input = () => toolInput({ path: nonBlank('path'), content: z.string() });

export const fsWriteTool = defineTool<FsWriteStep>({
  name: 'fs.write',
  kind: 'edit',
  description: {
    en: 'Create or overwrite a text file (read an existing file first); the user sees the diff first.',
    zh: '创建或覆盖一个文本文件（覆盖前须先读取它）；先向用户展示差异。',
  },
  input,
  example: { path: 'docs/new.md', content: '...' },
  confirmsInside: true,
  ...judgedByPath('fs.write'),
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
});

import { z } from 'zod';
import type { FsReadStep } from '../tool-steps';
import { nonBlank, presentFields, showWord, toolInput } from './common';
import { judgedByPath } from './fs-common';
import { defineTool } from './define-tool';
import { absolutePath, given, plainLines, stringField } from './claude-code';
import { fsReadModule } from '../lazy-modules';

const input = () =>
  toolInput({
    path: nonBlank('path'),
    /** First line to show, 1-based. */
    offset: z.number().int().positive().optional(),
    /** Lines to show (at most 2000). */
    limit: z.number().int().positive().optional(),
  });

export const fsReadTool = defineTool<FsReadStep>({
  name: 'fs.read',
  kind: 'read',
  description: {
    en: 'Read a text file as numbered lines (2000 from offset); a note says how to read on.',
    zh: '以带行号的形式读取文本文件（从 offset 起 2000 行）；附注说明如何继续读取。',
  },
  input,
  example: { path: 'src/a.ts', offset: 1, limit: 2000 },
  ...judgedByPath('fs.read'),
  digest: (s) => `read ${showWord(s.path)}${s.offset || s.limit ? ` (lines ${s.offset ?? 1}+${s.limit ? `, ${s.limit}` : ''})` : ''}`,
  summary: (s) => ({ title: `fs.read ${showWord(s.path)}`, fields: presentFields({ path: s.path, offset: s.offset, limit: s.limit }) }),
  execute: (s, ctx) => fsReadModule().runFsRead(s, ctx as never),
  claude: {
    names: ['Read'],
    input: (s, ctx) => given({ file_path: absolutePath(s.path, ctx), offset: s.offset, limit: s.limit }),
    fromInput: (c) => {
      const file = stringField(c, 'file_path');
      return typeof file === 'string' ? given({ path: file, offset: c.offset, limit: c.limit }) : file;
    },
    response: (s, r, ctx) => {
      const start = Number(r.startLine ?? 0);
      const end = Number(r.endLine ?? 0);
      return {
        type: 'text',
        file: {
          filePath: absolutePath(s.path, ctx),
          content: plainLines(String(r.content ?? '')),
          numLines: end >= start && start > 0 ? end - start + 1 : 0,
          startLine: start,
          totalLines: r.totalLines,
        },
      };
    },
  },
});

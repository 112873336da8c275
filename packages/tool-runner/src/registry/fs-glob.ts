import { z } from 'zod';
import type { FsGlobStep } from '../tool-steps';
import { nonBlank, presentFields, toolInput } from './common';
import { judgedByPath, searchLine } from './fs-common';
import { defineTool } from './define-tool';
import { absolutePath, given, stringField } from './claude-code';
import { fsGlobModule } from '../lazy-modules';

const input = () =>
  toolInput({
    /** A glob relative to `path`: `**` any folders, `*` within a name (`src/**\/*.ts`). */
    pattern: nonBlank('pattern'),
    /** The folder to search; default where the step runs. */
    path: z.string().optional(),
  });

export const fsGlobTool = defineTool<FsGlobStep>({
  name: 'fs.glob',
  kind: 'search',
  description: {
    en: 'Find files by name: a glob relative to path (`**/*.ts`); .gitignore respected; newest first, at most 200.',
    zh: '按文件名查找文件：相对于 path 的 glob（`**/*.ts`）；遵循 .gitignore；最新修改的在前，最多 200 个。',
  },
  input,
  example: { pattern: 'src/**/*.ts' },
  ...judgedByPath('fs.glob'),
  digest: (s) => searchLine('glob', s.pattern, s.path),
  summary: (s) => ({ title: searchLine('glob', s.pattern, s.path), fields: presentFields({ pattern: s.pattern, path: s.path }) }),
  execute: (s, ctx) => fsGlobModule().runFsGlob(s, ctx as never),
  claude: {
    names: ['Glob'],
    input: (s, ctx) => given({ pattern: s.pattern, path: s.path ? absolutePath(s.path, ctx) : undefined }),
    fromInput: (c) => {
      const pattern = stringField(c, 'pattern');
      return typeof pattern === 'string' ? given({ pattern, path: c.path }) : pattern;
    },
    response: (_s, r, ctx) => {
      const files = Array.isArray(r.files) ? r.files.map((f) => absolutePath(String(f), ctx)) : [];
      return { filenames: files, numFiles: typeof r.total === 'number' ? r.total : files.length, truncated: r.truncated === true };
    },
  },
});

import { z } from 'zod';
import type { FsGrepStep } from '../tool-steps';
import { nonBlank, presentFields, showWord, toolInput } from './common';
import { judgedByPath, searchLine } from './fs-common';
import { defineTool } from './define-tool';
import { absolutePath, given, grepFromClaude, grepResponse } from './claude-code';
import { fsGrepModule } from '../lazy-modules';

const input = () =>
  toolInput({
    /** A regular expression (ripgrep's syntax; JavaScript's in the fallback). */
    pattern: nonBlank('pattern'),
    /** A folder or one file; default where the step runs. */
    path: z.string().optional(),
    /** Only files matching this glob (`*.ts`; with a `/` it matches the path). */
    glob: z.string().optional(),
    ignoreCase: z.boolean().optional(),
    /** Lines shown before and after each match. */
    context: z.number().int().min(0).max(10).optional(),
    /** Matches shown at most (default 50). */
    maxResults: z.number().int().min(1).max(500).optional(),
  });

export const fsGrepTool = defineTool<FsGrepStep>({
  name: 'fs.grep',
  kind: 'search',
  description: {
    en: 'Search file contents for a regular expression (ripgrep syntax): matches as {file, line, text}; .gitignore respected, secret files skipped, at most 50 shown (optional: path, glob, ignoreCase, context lines, maxResults).',
    zh: '在文件内容中搜索正则表达式（ripgrep 语法）：结果为 {file, line, text}；遵循 .gitignore，跳过密钥文件，最多显示 50 条（可选：path、glob、ignoreCase、context 行数、maxResults）。',
  },
  input,
  example: { pattern: 'function\\s+main', path: 'src', glob: '*.ts' },
  ...judgedByPath('fs.grep'),
  digest: (s) => `${searchLine('grep', s.pattern, s.path)}${s.glob ? ` (${showWord(s.glob)})` : ''}`,
  summary: (s) => ({
    title: searchLine('grep', s.pattern, s.path),
    fields: presentFields({
      pattern: s.pattern,
      path: s.path,
      glob: s.glob,
      ignoreCase: s.ignoreCase,
      context: s.context,
      maxResults: s.maxResults,
    }),
  }),
  execute: (s, ctx) => fsGrepModule().runFsGrep(s, ctx as never),
  // Matching lines with their numbers is what this tool shows: Claude Code's output_mode "content" with -n.
  claude: {
    names: ['Grep'],
    input: (s, ctx) =>
      given({
        pattern: s.pattern,
        path: s.path ? absolutePath(s.path, ctx) : undefined,
        glob: s.glob,
        output_mode: 'content',
        '-i': s.ignoreCase,
        '-n': true,
        '-C': s.context,
        head_limit: s.maxResults,
      }),
    fromInput: grepFromClaude,
    response: (_s, r, ctx) => grepResponse(r, ctx),
  },
});

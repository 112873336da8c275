import { z } from 'zod';
import type { FsEditOne, FsEditStep } from '../tool-steps';
import { nonBlank, presentFields, showWord, toolInput } from './common';
import { judgedByPath } from './fs-common';
import type { SummaryField } from './types';
import { defineTool } from './define-tool';
import { absolutePath, editFromClaude, given } from './claude-code';
import { fsEditModule } from '../lazy-modules';

/** At most this many replacements in one multi-edit step. */
export const MAX_EDITS = 100;

/** One replacement: the exact text to replace (unique in the file unless replace_all) and its new text. */
const oneEdit = () => z.object({ old_string: z.string(), new_string: z.string(), replace_all: z.boolean().optional() });

const input = () =>
  toolInput({
    path: nonBlank('path'),
    // One replacement's fields, given at the top level (the refinement below asks for both texts).
    ...oneEdit().partial().shape,
    /** Several replacements, applied in order to one file, all or nothing. */
    edits: z.array(oneEdit()).min(1).max(MAX_EDITS).optional(),
  }).superRefine((s, ctx) => {
    const one = s.old_string !== undefined || s.new_string !== undefined || s.replace_all !== undefined;
    if (s.edits !== undefined && one)
      ctx.addIssue({ code: 'custom', message: 'give either old_string / new_string (one edit) or edits (several), not both' });
    else if (s.edits === undefined && (s.old_string === undefined || s.new_string === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'old_string and new_string are required (or edits: [{old_string, new_string}, …] for several)',
      });
    }
  });

/** The replacements of a step, in order: its `edits`, or its one old_string / new_string. */
export function editsOf(s: FsEditStep): FsEditOne[] {
  if (s.edits) return s.edits;
  return [
    {
      old_string: s.old_string ?? '',
      new_string: s.new_string ?? '',
      ...(s.replace_all !== undefined ? { replace_all: s.replace_all } : {}),
    },
  ];
}

/** The question's fields: each replacement's old and new text (a multi-edit names them edits[0], edits[1], …). */
function editFields(s: FsEditStep): SummaryField[] {
  if (!s.edits) {
    return [
      ...presentFields({ path: s.path, replace_all: s.replace_all }),
      { name: 'old_string', value: s.old_string, text: true },
      { name: 'new_string', value: s.new_string, text: true },
    ];
  }
  return [
    { name: 'path', value: s.path },
    ...s.edits.flatMap((e, i) => [
      { name: `edits[${i}].old_string${e.replace_all ? ' (all)' : ''}`, value: e.old_string, text: true },
      { name: `edits[${i}].new_string`, value: e.new_string, text: true },
    ]),
  ];
}

export const fsEditTool = defineTool<FsEditStep>({
  name: 'fs.edit',
  kind: 'edit',
  description: {
    en: 'Replace exact text in a file (old_string must be unique unless replace_all); several places of one file at once with edits: [{old_string, new_string, replace_all?}, …], applied in order, all or nothing. The user sees the diff first.',
    zh: '在文件中精确替换文本（除非 replace_all，否则 old_string 必须唯一）；用 edits: [{old_string, new_string, replace_all?}, …] 可一次修改同一文件的多处，按顺序应用，要么全部成功要么不改。先向用户展示差异。',
  },
  input,
  example: { path: 'src/a.ts', old_string: '<exact text, unique in the file>', new_string: '...', replace_all: false },
  confirmsInside: true,
  ...judgedByPath('fs.edit'),
  digest: (s) =>
    s.edits ? `edit ${showWord(s.path)} (${s.edits.length} edits)` : `edit ${showWord(s.path)}${s.replace_all ? ' (all)' : ''}`,
  summary: (s) => ({ title: `fs.edit ${showWord(s.path)}`, fields: editFields(s) }),
  execute: (s, ctx) => fsEditModule().runFsEdit(s, ctx as never) as never,
  // One replacement is Claude Code's Edit; several its MultiEdit (what a hook reads as tool_name).
  claude: {
    names: ['Edit', 'MultiEdit'],
    nameFor: (s) => (s.edits ? 'MultiEdit' : 'Edit'),
    input: (s, ctx) =>
      s.edits
        ? {
            file_path: absolutePath(s.path, ctx),
            edits: s.edits.map((e) => given({ old_string: e.old_string, new_string: e.new_string, replace_all: e.replace_all })),
          }
        : given({ file_path: absolutePath(s.path, ctx), old_string: s.old_string, new_string: s.new_string, replace_all: s.replace_all }),
    fromInput: editFromClaude,
    response: (s, _r, ctx) =>
      s.edits
        ? {
            filePath: absolutePath(s.path, ctx),
            edits: s.edits.map((e) => ({ old_string: e.old_string, new_string: e.new_string, replace_all: e.replace_all === true })),
            userModified: false,
          }
        : {
            filePath: absolutePath(s.path, ctx),
            oldString: s.old_string,
            newString: s.new_string,
            replaceAll: s.replace_all === true,
            userModified: false,
          },
  },
});

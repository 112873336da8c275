import { z } from 'zod';
import type { JsonPatchStep, PatchOp as PatchOpStep } from '../types';
import { nonBlank, toolInput, touches } from './common';
import { defineTool } from './define-tool';
import { configRulesModule, jsonPatchToolModule, pathsModule } from '../lazy-modules';

const patchOp = () =>
  z
    .object({
      op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test', 'set', 'unset']),
      path: z.string(),
      value: z.unknown().optional(),
      from: z.string().optional(),
    })
    .passthrough();

/** One operation as a line: `replace /a/b = true`, `move /a -> /b`, `remove /x`. */
function opLine(op: PatchOpStep): string {
  const from = op.from !== undefined ? ` <- ${op.from}` : '';
  const value = 'value' in op && op.op !== 'remove' && op.op !== 'unset' ? ` = ${JSON.stringify(op.value) ?? 'undefined'}` : '';
  return `${op.op} ${op.path}${from}${value}`;
}

const input = () => toolInput({ file: nonBlank('file'), patch: z.array(patchOp()).min(1) });

export const configJsonPatchTool = defineTool<JsonPatchStep>({
  name: 'config.json_patch',
  kind: 'edit',
  description: {
    en: 'Change a JSON config file with RFC 6902 operations (plus set/unset): the user sees a masked diff first; a backup is kept.',
    zh: '用 RFC 6902 操作（以及 set/unset）修改 JSON 配置文件：先向用户展示脱敏后的差异，并保留备份。',
  },
  input,
  example: { file: 'tsconfig.json', patch: [{ op: 'replace', path: '/compilerOptions/strict', value: true }] },
  confirmsInside: true,
  permission: { arg: 'path', subject: (s) => ({ kind: 'path', path: s.file }) },
  judgeContext: (s, env) => ({ allowedRoots: env.allowedRoots(), fsTarget: env.session.resolve(s.file) }),
  assess(s, ctx) {
    const { patchFindings } = configRulesModule();
    const findings = patchFindings(s, ctx);
    // Judge the target, not the spelling: a file reached through a link is judged where it leads too.
    const real = ctx.fsTarget && ctx.fsTarget.real !== ctx.fsTarget.abs ? ctx.fsTarget.real : undefined;
    if (real) findings.push(...patchFindings({ ...s, file: real }, ctx).filter((f) => f.level !== 'L1' || f.id !== 'config.patch'));
    // Files other programs run or load later (inside .git/, shell start-up files, …), spelled or reached through a link.
    if (!findings.some((f) => f.level === 'L2'))
      findings.push(
        ...pathsModule().runsLaterFindings([s.file, configRulesModule().patchTarget(s.file, ctx), ...(real ? [real] : [])], ctx, s.file),
      );
    return { findings, touches: touches({ write: [real ?? s.file] }) };
  },
  approvalKey: (s) => `config.json_patch ${s.file}`,
  digest: (s) => `json_patch ${s.file} (${s.patch.length} op${s.patch.length === 1 ? '' : 's'})`,
  summary: (s) => ({
    title: `config.json_patch ${s.file}`,
    fields: [
      { name: 'file', value: s.file },
      { name: 'patch', value: s.patch.map(opLine).join('\n'), text: true },
    ],
  }),
  execute: (s, ctx) => jsonPatchToolModule().runJsonPatch(s, ctx),
});

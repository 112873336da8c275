/**
 * What `/diff` and `/export` print, from the agent and the workspace (no model request). The
 * screen calls these and prints the text.
 */
import * as path from 'path';
import type { AppAgent } from '../cli/app';
import type { Lang } from '../i18n';
import type { Step } from '../context/protocol';
import { collectDiff, newFileLines } from './diff-view';
import { exportTarget, transcriptMarkdown, writeExport } from './export';
import { colorDiff } from './screen-text';
import { ms } from './strings-more';
import type { Theme } from './theme';

/** Diff lines printed at most; the rest is counted (`git diff` shows all). */
export const DIFF_MAX_LINES = 1500;

/** `/diff`: the files (marked when this session changed them), the diff, new files' first lines. */
export async function diffText(
  app: Pick<AppAgent, 'agent'>,
  cwd: string,
  env: NodeJS.ProcessEnv,
  theme: Theme,
  lang: Lang,
): Promise<string> {
  const { gitRead } = require('@holic512/tool-runner') as typeof import('@holic512/tool-runner');
  const session = app.agent.changedFiles();
  const found = await collectDiff(cwd, session, (args) => gitRead(args, { cwd, env }));
  if ('error' in found)
    return theme.yellow(
      found.error === 'not_repo' ? ms(lang, 'diffNotRepo', { cwd }) : ms(lang, 'diffGitFailed', { detail: found.detail }),
    );
  const mine = new Set(session);
  const mark = (rel: string) => (mine.has(path.join(found.root, rel)) ? theme.cyan(' ●') : '  ');
  const out: string[] = [];
  if (!found.changed.length && !found.untracked.length) out.push(ms(lang, 'diffClean', { root: found.root }));
  else out.push(theme.bold(ms(lang, 'diffHead', { root: found.root, changed: found.changed.length, untracked: found.untracked.length })));
  for (const rel of found.changed) out.push(`  ${theme.yellow('M')}${mark(rel)} ${rel}`);
  for (const rel of found.untracked) out.push(`  ${theme.green('?')}${mark(rel)} ${rel}`);
  if (session.some((f) => found.changed.concat(found.untracked).some((rel) => path.join(found.root, rel) === f)))
    out.push(theme.dim(ms(lang, 'diffLegend')));
  const lines = found.diff
    .replace(/\n$/, '')
    .split('\n')
    .filter((l, i, all) => l || all.length > 1);
  const body: string[] = [...(found.diff ? lines : [])];
  for (const rel of found.untracked) {
    const file = path.join(found.root, rel);
    // A new file's text only where the model could read it without a question (never a secret file).
    const secret = app.agent.verdictOf({ tool: 'fs.read', path: file } as Step).level !== 'L0';
    const shown = secret ? undefined : newFileLines(file);
    body.push(`+++ ${rel} ${ms(lang, 'diffNewFile')}`);
    if (secret) body.push(ms(lang, 'diffSecret'));
    else if (!shown) body.push(ms(lang, 'diffNotText'));
    else body.push(...shown.lines, ...(shown.more ? [ms(lang, 'diffMoreLines', { n: shown.more })] : []));
  }
  if (body.length) {
    out.push('', ...colorDiff(body.slice(0, DIFF_MAX_LINES).join('\n'), theme));
    if (body.length > DIFF_MAX_LINES) out.push(theme.dim(ms(lang, 'diffCut', { n: body.length - DIFF_MAX_LINES })));
  }
  const rel = (f: string) => path.relative(cwd, f) || f;
  if (found.sessionOnly.length) out.push(theme.dim(ms(lang, 'diffSessionOnly', { files: found.sessionOnly.map(rel).join(', ') })));
  return out.join('\n');
}

/** `/export [file] [--force]`: write the conversation as Markdown; what to say. */
export function exportText(app: Pick<AppAgent, 'agent'>, arg: string, cwd: string, at: Date, theme: Theme, lang: Lang): string {
  const records = app.agent.transcript();
  if (!records.some((r) => r.t === 'user')) return theme.yellow(ms(lang, 'exportEmpty'));
  const target = exportTarget(arg, cwd, app.agent.sessionId);
  if ('error' in target) return theme.yellow(ms(lang, target.error === 'exists' ? 'exportExists' : 'exportFolder', { file: target.file }));
  try {
    writeExport(target.file, transcriptMarkdown(records, { id: app.agent.sessionId, cwd, at: at.toISOString(), lang }));
  } catch (err) {
    return theme.red(ms(lang, 'exportFailed', { file: target.file, why: (err as Error).message.split('\n')[0] }));
  }
  const messages = records.filter((r) => r.t === 'user').length;
  return theme.green(ms(lang, target.replaced ? 'exportReplaced' : 'exportWritten', { file: target.file, n: messages }));
}

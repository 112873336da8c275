/**
 * `/export [file]`: the conversation as Markdown — every user message and every answer, each step
 * as one short line with how it ended, what the person ran with `!` and memory lines added with `#`
 * — redacted, written atomically. An existing file is replaced only with `--force`; the default
 * name (`ai-<session>.md` in the working folder) takes the first free `-2`, `-3`… instead.
 */
import fs = require('fs');
import os = require('os');
import path = require('path');
import { redact } from '@holic512/shared';
import { writeFileAtomicSync } from '@holic512/shared/lib/atomic-write';
import type { Lang } from '../i18n';
import type { SessionRecord } from '../sessions/sessions';
import { t } from '../i18n';

/** A record's content as JSON, or undefined. */
function json(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A step in one line, from a stored result (its `step` label, or its fields). */
function stepOf(r: Record<string, unknown>): string {
  const label =
    str(r.step) ??
    (str(r.program) ? [r.program, ...(Array.isArray(r.args) ? r.args : [])].join(' ') : undefined) ??
    [r.tool, r.path ?? r.file ?? r.pattern ?? r.url ?? r.query ?? r.proc_id ?? r.name].filter((x) => typeof x === 'string').join(' ');
  const end = str(r.status) ?? (typeof r.exitCode === 'number' ? `exit ${r.exitCode}` : (str(r.outcome) ?? 'done'));
  const level = str(r.level) ?? str((r.decision as { level?: unknown } | undefined)?.level);
  return `- \`${label.replace(/`/g, "'").slice(0, 200)}\`${level ? ` [${level}]` : ''} → ${end}`;
}

/** The message of a stored reply: the protocol's JSON (`message`, and the steps a cmd asked for) or plain text. */
function replyOf(content: string): { text: string; asked: string[] } {
  const r = json(content);
  if (!r || typeof r.message !== 'string') return { text: content, asked: [] };
  const asked = Array.isArray(r.asked) ? r.asked.filter((a): a is string => typeof a === 'string') : [];
  return { text: r.message, asked: r.type === 'cmd' ? asked : [] };
}

/** Records after `/rewind`s: a rewind to message N drops that message and everything after it. */
function applyRewinds(records: readonly SessionRecord[]): SessionRecord[] {
  const out: SessionRecord[] = [];
  for (const r of records) {
    if (r.t === 'rewind') {
      let users = 0;
      const cut = out.findIndex((x) => x.t === 'user' && ++users === r.turn);
      if (cut >= 0) out.splice(cut);
      continue;
    }
    out.push(r);
  }
  return out;
}

/** An event the conversation shows: what the person ran, memory they added; others are the runner's own. */
function eventLines(content: string, lang: Lang): string[] {
  const e = json(content);
  if (e?._event === 'user_ran') {
    const end = e.status ? String(e.status) : `exit ${String(e.exitCode ?? '?')}`;
    const out = [t(lang, 'mdYouRan', { command: String(e.command ?? '').replace(/`/g, "'"), end })];
    const text = [str(e.stdout), str(e.stderr)].filter(Boolean).join('\n').trim();
    if (text) out.push('', '```', text, '```');
    return [...out, ''];
  }
  if (e?._event === 'memory_added') return [t(lang, 'mdMemory', { file: String(e.file ?? ''), text: String(e.text ?? '') }), ''];
  return [];
}

/** The conversation as Markdown, its headings in `lang`. Pure (apart from redaction). */
export function transcriptMarkdown(records: readonly SessionRecord[], meta: { id: string; cwd: string; at: string; lang: Lang }): string {
  const { lang } = meta;
  const lines = [
    `# ${t(lang, 'mdTitle', { id: meta.id })}`,
    '',
    `- ${t(lang, 'mdFolder', { cwd: meta.cwd })}`,
    `- ${t(lang, 'mdExported', { at: meta.at })}`,
    '',
  ];
  let steps: string[] = [];
  const flushSteps = () => {
    if (steps.length) lines.push(...steps, '');
    steps = [];
  };
  for (const r of applyRewinds(records)) {
    if (r.t === 'user') {
      flushSteps();
      lines.push(`## ${t(lang, 'mdYou')}`, '', r.content.trim(), '');
      if (r.images?.length) lines.push(...r.images.map((i) => `- ${t(lang, 'mdImage', { name: i.name })}`), '');
    } else if (r.t === 'assistant') {
      const reply = replyOf(r.content);
      if (reply.asked.length) {
        if (reply.text.trim()) steps.push(`*${reply.text.trim().replace(/\n+/g, ' ')}*`, '');
        continue;
      }
      flushSteps();
      lines.push(`## ${t(lang, 'mdAi')}`, '', reply.text.trim(), '');
    } else if (r.t === 'tool') {
      const result = json(r.content);
      if (result) steps.push(stepOf(result));
    } else if (r.t === 'event') {
      flushSteps();
      lines.push(...eventLines(r.content, lang));
    } else if (r.t === 'summary') {
      flushSteps();
      lines.push(`## ${t(lang, 'mdSummary')}`, '', r.summary.summary, '');
    }
  }
  flushSteps();
  return redact(
    lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n',
  );
}

export type ExportTarget = { file: string; replaced: boolean } | { error: 'exists'; file: string } | { error: 'folder'; file: string };

/** Where `/export` writes: `arg` (`~/` expanded, relative to `cwd`; `--force` replaces), or the first free default name. */
export function exportTarget(arg: string, cwd: string, id: string): ExportTarget {
  const words = arg.split(/\s+/).filter(Boolean);
  const force = words.includes('--force');
  const name = words.filter((w) => w !== '--force').join(' ');
  if (!name) {
    for (let n = 1; ; n++) {
      const file = path.join(cwd, `ai-${id}${n > 1 ? `-${n}` : ''}.md`);
      if (!fs.existsSync(file)) return { file, replaced: false };
    }
  }
  const file = path.resolve(cwd, name.startsWith('~/') ? path.join(os.homedir(), name.slice(2)) : name);
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (st?.isDirectory()) return { error: 'folder', file };
  if (st && !force) return { error: 'exists', file };
  return { file, replaced: Boolean(st) };
}

/** Write the Markdown atomically (the folder must exist; a new file is private to the user). */
export function writeExport(file: string, markdown: string): void {
  const dir = fs.realpathSync(path.dirname(file));
  writeFileAtomicSync(path.join(dir, path.basename(file)), markdown, { mode: 0o600 });
}

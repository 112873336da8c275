/**
 * What `/model` and `/rewind` print and how their arguments read. Pure: the screen passes in the
 * profiles it read and the agent's checkpoints and results.
 */
import path = require('path');
import type { Lang } from '../i18n';
import type { RewindResult } from '../agent/agent-rewind';
import type { UsageTotals } from '../agent/events';
import type { UndoResult } from '../agent/runner-types';
import type { Theme } from './theme';
import { t } from '../i18n';

export type Tier = 'low' | 'high';
export interface ProfileModels {
  defaultName?: string;
  names: string[];
  models: Record<string, { low?: string; high?: string }>;
}

/** `/model <profile>[:low|high]`, `/model low|high`: what to switch to, or why not. */
export function parseModelArg(arg: string, profiles: ProfileModels | undefined): { profile?: string; tier?: Tier } | { error: string } {
  const [name, tier] = arg.includes(':') ? arg.split(':', 2) : arg === 'low' || arg === 'high' ? ['', arg] : [arg, ''];
  if (tier && tier !== 'low' && tier !== 'high') return { error: 'tier' };
  if (name && !(profiles?.names ?? []).includes(name)) return { error: 'profile' };
  return { ...(name ? { profile: name } : {}), ...(tier ? { tier: tier as Tier } : {}) };
}

/** The model a profile and tier stand for, when llm-base's config names it. */
export function modelOf(profiles: ProfileModels | undefined, profile: string | null, tier: Tier): string | undefined {
  const name = profile ?? profiles?.defaultName;
  return name ? profiles?.models[name]?.[tier] : undefined;
}

/** `/model` alone: every profile with its two models, the one in use marked. */
export function formatModels(
  profiles: ProfileModels | undefined,
  current: { profile: string | null; tier: Tier },
  theme: Theme,
  lang: Lang,
): string[] {
  if (!profiles?.names.length) return [t(lang, 'modelNoProfiles')];
  const using = current.profile ?? profiles.defaultName;
  const lines = [t(lang, 'modelHead')];
  for (const name of profiles.names) {
    for (const tier of ['low', 'high'] as const) {
      const id = profiles.models[name]?.[tier] ?? '?';
      const mark = name === using && tier === current.tier;
      const line = `  ${mark ? '●' : ' '} ${name}:${tier}  ${id}${name === profiles.defaultName && tier === 'low' ? `  ${t(lang, 'modelDefault')}` : ''}`;
      lines.push(mark ? theme.bold(line) : line);
    }
  }
  lines.push(theme.dim(t(lang, 'modelUsage')));
  return lines;
}

/** `/rewind` alone: the user messages one can go back to, with their time and first line. */
export function formatCheckpoints(
  points: Array<{ turn: number; at: string; title: string; notRestorable: string[] }>,
  theme: Theme,
  lang: Lang,
): string[] {
  if (!points.length) return [t(lang, 'rewindNone')];
  const lines = [t(lang, 'rewindHead')];
  for (const p of points) {
    const time = p.at.slice(11, 16);
    lines.push(`  ${String(p.turn).padStart(3)}  ${time}  ${p.title}`);
    if (p.notRestorable.length) lines.push(theme.dim(`         ${t(lang, 'rewindNotRestorable', { steps: p.notRestorable.join(', ') })}`));
  }
  lines.push(theme.dim(t(lang, 'rewindUsage')));
  return lines;
}

/** `/rewind N [files|conversation]`: which message, and what to restore (both by default). */
export function parseRewindArg(arg: string): { turn: number; conversation: boolean; files: boolean } | undefined {
  const m = /^(\d+)(?:\s+(files|conversation|both))?$/.exec(arg.trim());
  if (!m) return undefined;
  const what = m[2] ?? 'both';
  return { turn: Number(m[1]), conversation: what !== 'files', files: what !== 'conversation' };
}

/** What a rewind did: turns dropped, files back (relative to `cwd`), what could not come back. */
export function formatRewind(r: RewindResult, cwd: string, theme: Theme, lang: Lang): string[] {
  const rel = (p: string): string => {
    const x = path.relative(cwd, p);
    return x && !x.startsWith('..') && !path.isAbsolute(x) ? x : p;
  };
  const lines = [t(lang, 'rewindDone', { turn: r.turn, dropped: r.droppedTurns })];
  for (const f of r.files?.restored ?? []) lines.push(theme.green(t(lang, 'undoRestored', { path: rel(f.path), action: f.action })));
  for (const f of r.files?.skipped ?? [])
    lines.push(theme.yellow(t(lang, 'undoSkipped', { path: rel(f.path), reason: f.message ?? f.reason })));
  if (r.notRestored.length) lines.push(theme.yellow(t(lang, 'rewindNotRestored', { steps: r.notRestored.join(', ') })));
  return lines;
}

/** A price: `0.0123 USD`, or `¥0.08` style for CNY. */
function money(amount: number, currency: string): string {
  const digits = amount < 0.01 ? 4 : amount < 1 ? 3 : 2;
  if (currency === 'CNY' || currency === 'RMB') return `¥${amount.toFixed(digits)}`;
  return currency === 'USD' ? `$${amount.toFixed(digits)}` : `${amount.toFixed(digits)} ${currency}`;
}

type Cost = { usage: UsageTotals; amount?: number; currency?: string };

function costLine(what: 'costSession' | 'costTurn', c: Cost, lang: Lang): string {
  const u = c.usage;
  const parts = [t(lang, 'cost', { what: t(lang, what), input: u.input_tokens, output: u.output_tokens, calls: u.calls })];
  if (u.cached_tokens) parts.push(t(lang, 'costCached', { cached: u.cached_tokens }));
  if (c.amount !== undefined && c.currency) parts.push(t(lang, 'costMoney', { money: money(c.amount, c.currency) }));
  return parts.join(' ');
}

/** `/cost`: the session, then the last turn: tokens, cached input tokens, and money when ai.json
 * has prices (else how to set them, said once). */
export function formatCost(session: Cost, turn: Cost | undefined, lang: Lang): string[] {
  const shown = [session, ...(turn && turn.usage.calls ? [turn] : [])];
  const lines = [costLine('costSession', session, lang)];
  if (shown.length > 1) lines.push(costLine('costTurn', turn!, lang));
  if (shown.some((c) => c.amount === undefined || !c.currency)) lines.push(t(lang, 'costNoPrices'));
  return lines;
}

/** What `/undo` says: each file restored or not, relative to the working folder. */
export function formatUndo(result: UndoResult | null, cwd: string, theme: Theme, lang: Lang): string {
  if (!result || (!result.restored.length && !result.skipped.length)) return t(lang, 'undoNone');
  const rel = (p: string) => {
    const r = path.relative(cwd, p);
    return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
  };
  const lines = [t(lang, 'undoDone')];
  for (const r of result.restored) lines.push(theme.green(t(lang, 'undoRestored', { path: rel(r.path), action: r.action })));
  for (const r of result.skipped) {
    const reason =
      r.message ?? t(lang, r.reason === 'changed_since' ? 'undoChangedSince' : r.reason === 'not_kept' ? 'undoNotKept' : 'undoError');
    lines.push(theme.yellow(t(lang, 'undoSkipped', { path: rel(r.path), reason })));
  }
  return lines.join('\n');
}

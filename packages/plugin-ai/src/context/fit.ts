import type { Reply } from './protocol';
import { describeStep } from '../agent/step-label';
import type { ToolResult } from '../agent/runner-types';
import { stepOutcome } from '../agent/step-outcome';
import { estimateTokens, truncateHead, truncateTail } from './tokens';

/**
 * Assistant turns are stored compactly: type + message + the steps it asked for (DESIGN §6),
 * stored when the reply comes, before they run: what happened to each (`ran`, `declined`,
 * `blocked_by_hook`, `refused`, …: step-outcome.ts) is its tool result's `outcome`, the same in
 * the window the model reads and in the session file. Sessions written before said `ran`.
 */
export function compactAssistant(reply: Reply, maxTokens: number): string {
  const message = truncateHead(reply.message, maxTokens);
  if (reply.type === 'cmd') {
    return JSON.stringify({ type: 'cmd', message, asked: reply.data.commands.map((step) => describeStep(step)) });
  }
  return JSON.stringify({ type: reply.type, message });
}

function stepLabel(result: ToolResult): string {
  if (result.program) return [result.program, ...(result.args ?? [])].join(' ');
  if (typeof result.plugin === 'string') return `plugin ${result.plugin}`;
  if (result.file) return `json_patch ${result.file}`;
  // fs.glob / fs.grep: what was looked for, then where.
  if (typeof result.pattern === 'string')
    return `${result.tool} ${result.pattern}${typeof result.path === 'string' ? ` in ${result.path}` : ''}`;
  if (typeof result.path === 'string') return `${result.tool} ${result.path}`;
  if (typeof result.url === 'string') return `${result.tool} ${result.url}`;
  if (typeof result.query === 'string') return `${result.tool} ${result.query}`;
  if (typeof result.proc_id === 'string') return `${result.tool} ${result.proc_id}`;
  return result.tool;
}

/** The short form of a tool result kept in the recent window. */
export function compactToolResult(result: ToolResult, maxTokens = 80): string {
  const out: Record<string, unknown> = { _event: 'tool_result', id: result.id, step: truncateHead(stepLabel(result), 40) };
  if (result.status) out.status = result.status;
  out.outcome = stepOutcome(result);
  if (result.exitCode !== undefined) out.exitCode = result.exitCode;
  out.level = result.decision?.level;
  const tail = result.stdoutTail || result.stderrTail || result.summary || '';
  if (tail) out.out = truncateTail(String(tail), maxTokens);
  return JSON.stringify(out);
}

/**
 * fs.read content cut to whole numbered lines within `maxTokens`, with `endLine`, `nextOffset`
 * and the note saying where to read on, so the model never skips the lines that did not fit.
 */
function fitFileLines(result: ToolResult, maxTokens: number): Record<string, unknown> {
  const lines = String(result.content).split('\n');
  const kept: string[] = [];
  let cost = 0;
  for (const line of lines) {
    const c = estimateTokens(line) + 1;
    if (kept.length && cost + c > maxTokens) break;
    kept.push(cost + c > maxTokens ? truncateHead(line, maxTokens) : line);
    cost += c;
  }
  if (kept.length === lines.length) return {};
  const last = /^\s*(\d+)\t/.exec(kept[kept.length - 1] ?? '');
  const endLine = last ? Number(last[1]) : Number(result.endLine ?? 0);
  return {
    content: kept.join('\n'),
    endLine,
    nextOffset: endLine + 1,
    truncated: true,
    note: `showing lines ${String(result.startLine)}–${endLine} of ${String(result.totalLines)} (context budget); read on with "offset": ${endLine + 1}, or a smaller "limit"`,
  };
}

/** The leading items of a list whose JSON fits `maxTokens` (at least one, itself cut when it is alone too large). */
function fitList(list: unknown[], maxTokens: number): unknown[] {
  const kept: unknown[] = [];
  let cost = 0;
  for (const item of list) {
    const c = estimateTokens(JSON.stringify(item)) + 1;
    if (cost + c > maxTokens) {
      if (!kept.length) kept.push(typeof item === 'string' ? truncateHead(item, maxTokens) : truncateHead(JSON.stringify(item), maxTokens));
      break;
    }
    kept.push(item);
    cost += c;
  }
  return kept;
}

/** A tool result as JSON within `maxTokens`: tails and parsed structure are shortened first,
 * so the result stays valid JSON whenever possible. */
export function fitToolResult(result: ToolResult, maxTokens: number): string {
  // Every character costs at least a quarter token, in its JSON too: a result whose strings alone
  // are over the budget is cut without being serialised and estimated whole first (its output
  // tails can be 64 KiB each, and a step's result is fitted twice: for the window and for the request).
  if (stringChars(result) / 4 <= maxTokens) {
    const full = JSON.stringify(result);
    if (estimateTokens(full) <= maxTokens) return full;
  }
  for (let share = Math.floor(maxTokens / 3); share >= 8; share = Math.floor(share / 2)) {
    const copy: Record<string, unknown> = { ...result };
    for (const key of ['stdoutTail', 'stderrTail', 'lastOutput'] as const) {
      if (typeof copy[key] === 'string') copy[key] = truncateTail(copy[key] as string, share);
    }
    // Page text and snippets: the beginning matters.
    // Numbered file lines (a result with totalLines) are cut on whole lines instead.
    const fileLines = typeof result.totalLines === 'number';
    for (const key of ['snippet', ...(fileLines ? [] : ['content'])]) {
      if (typeof copy[key] === 'string') copy[key] = truncateHead(copy[key] as string, share);
    }
    if (fileLines && typeof copy.content === 'string') Object.assign(copy, fitFileLines(result, share));
    // Lists of results (fs.grep matches, fs.glob files, web.search results): whole items from the start.
    for (const key of ['matches', 'files', 'results']) {
      const list = copy[key];
      if (!Array.isArray(list)) continue;
      const kept = fitList(list, share);
      if (kept.length < list.length) {
        copy[key] = kept;
        copy.note = `${kept.length} of ${list.length} ${key} shown (context budget)${typeof copy.note === 'string' ? `; ${copy.note}` : ''}`;
      }
    }
    if (copy.parsed !== undefined) {
      const parsed = JSON.stringify(copy.parsed);
      if (estimateTokens(parsed) > share) copy.parsed = truncateHead(parsed, share);
    }
    if (copy.changes !== undefined) {
      const changes = JSON.stringify(copy.changes);
      if (estimateTokens(changes) > share) copy.changes = truncateHead(changes, share);
    }
    if (copy.decision && estimateTokens(JSON.stringify(copy.decision)) > share) {
      const d = result.decision;
      copy.decision = { level: d.level, by: d.by, rules: d.rules.map((r) => r.id) };
    }
    copy.truncated = true;
    const text = JSON.stringify(copy);
    if (estimateTokens(text) <= maxTokens) return text;
  }
  return truncateHead(compactToolResult(result), maxTokens);
}

/** The characters of a result's own string fields (a lower bound of its JSON's length). */
function stringChars(result: ToolResult): number {
  let n = 0;
  for (const v of Object.values(result)) if (typeof v === 'string') n += v.length;
  return n;
}

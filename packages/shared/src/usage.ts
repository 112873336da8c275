/**
 * The one way the SlothTool CLIs (slothtool, llm-base, ai) report a bad command line: what was
 * wrong, the closest known option or command when one is near ("did you mean --base-url?"), and
 * where the options are listed. Each CLI's entry prints it on stderr and exits with
 * USAGE_EXIT_CODE. Also: how to name a plugin's command in a hint (`slothtool ai` or `ai`).
 */
import path = require('path');
import type { Lang } from './language';
import { defineMessages } from './messages';

/** The exit code of a bad command line, in every CLI. */
export const USAGE_EXIT_CODE = 2;

/** The messages (registered with the other catalogues in the root messages test). */
export const USAGE_TABLES = {
  en: {
    usage: 'Invalid usage: {detail}.',
    didYouMean: 'Did you mean {suggestion}?',
    seeHelp: 'Run `{help}` for the options.',
  },
  zh: {
    usage: '用法错误：{detail}。',
    didYouMean: '是不是想输入 {suggestion}？',
    seeHelp: '运行 `{help}` 查看选项。',
  },
};

const USAGE = defineMessages(USAGE_TABLES);

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The known word `typed` most likely meant: the nearest by edit distance (one edit for short
 * words, two from five letters on; `_` counts as `-`), or the only one it is the start of
 * (`--base` → `--base-url`). Undefined when none is near or two are equally near.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/_/g, '-');
  const word = norm(typed);
  const letters = word.replace(/^-+/, '').length;
  if (letters === 0) return undefined;
  const limit = letters >= 5 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const candidate of known) {
    const distance = editDistance(word, norm(candidate));
    if (distance < bestDistance) [best, bestDistance, tie] = [candidate, distance, false];
    else if (distance === bestDistance && candidate !== best) tie = true;
  }
  if (best !== undefined && best !== typed && bestDistance <= limit && !tie) return best;
  const starts = letters >= 3 ? known.filter((k) => norm(k).startsWith(word) && norm(k) !== word) : [];
  return starts.length === 1 ? starts[0] : undefined;
}

/**
 * The text of a bad command line: `detail` (what was wrong, in `lang`), "Did you mean …?" when
 * `suggestion` is given, and `help` (the command that lists the options).
 */
export function usageMessage(lang: Lang, problem: { detail: string; suggestion?: string; help: string }): string {
  const parts = [USAGE.t(lang, 'usage', { detail: problem.detail.replace(/[.\u3002]$/, '') })];
  if (problem.suggestion) parts.push(didYouMean(lang, problem.suggestion));
  parts.push(USAGE.t(lang, 'seeHelp', { help: problem.help }));
  return parts.join(lang === 'zh' ? '' : ' ');
}

/** "Did you mean …?" alone, in `lang` (a hint under another message). */
export function didYouMean(lang: Lang, suggestion: string): string {
  return USAGE.t(lang, 'didYouMean', { suggestion });
}

/**
 * How the user runs plugin `alias`, for the commands hints and usage lines name: `slothtool
 * <alias>` — the way a plugin is installed and run (our host also says so with SLOTHTOOL_HOST=1;
 * the original host runs `node <binPath>`, the bin under its plugins folder) — unless the bin was
 * clearly started on its own: through a command on PATH named after the alias (`ai`, npm's link
 * to bin/ai.js after `npm install -g`) with no host around. Then just `<alias>`.
 */
export function commandFor(alias: string, env: NodeJS.ProcessEnv = process.env, bin: string = process.argv[1] ?? ''): string {
  if (env.SLOTHTOOL_HOST) return `slothtool ${alias}`;
  const name = path.basename(bin);
  return name === alias || name === `${alias}.cmd` ? alias : `slothtool ${alias}`;
}

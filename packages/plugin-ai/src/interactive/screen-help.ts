/** What `/help` and `/memory` print. Pure: data in, text out. */
import os = require('os');
import path = require('path');
import type { Lang } from '../i18n';
import type { LoadedInstructions } from '../context/project-context';
import type { CustomCommand } from '../extensions/commands';
import { COMMANDS, type CommandName } from './commands';
import type { Theme } from './theme';
import { t } from '../i18n';

/** `/help`: the built-in commands, the custom ones (with where each came from), the keys and input forms. */
export function helpText(custom: readonly CustomCommand[], theme: Theme, lang: Lang): string {
  const width = Math.max(...COMMANDS.map((c) => c.length)) + 10;
  const usage: Partial<Record<CommandName, string>> = {
    mode: '/mode low|high',
    profile: '/profile <name>',
    resume: '/resume <id>',
    steer: '/steer <msg>',
    next: '/next <msg>',
    export: '/export [file]',
    review: '/review [focus]',
  };
  const lines = [theme.bold(t(lang, 'helpTitle'))];
  for (const c of COMMANDS) lines.push(`  ${theme.cyan((usage[c] ?? `/${c}`).padEnd(width))} ${t(lang, `help_${c}`)}`);
  for (const c of custom)
    lines.push(
      `  ${theme.cyan(`/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`.padEnd(width))} ${c.description} ${theme.dim(`(${c.origin})`)}`,
    );
  lines.push(theme.dim(t(lang, 'helpKeys')));
  return lines.join('\n');
}

/** `/memory`: the memory files in the system prompt (the user's, then the project's, imports under
 * what imported them), their tokens, which were cut, and the cap. */
export function memoryText(memory: readonly LoadedInstructions[], cap: number, cwd: string, theme: Theme, lang: Lang): string {
  const home = os.homedir();
  // The project's files relative to here (they are up to the git root), the user's from `~`.
  const rel = (m: LoadedInstructions): string => {
    if (m.scope === 'user' && m.file.startsWith(home + path.sep)) return `~${m.file.slice(home.length)}`;
    return (path.relative(cwd, m.file) || m.file).split(path.sep).join('/');
  };
  if (!memory.length) return t(lang, 'memoryNone', { cap });
  const lines = memory.map((m) => {
    const indent = m.importedBy ? '    ↳ ' : '  ';
    const cut = m.truncated ? ` ${theme.yellow(t(lang, 'memoryCut'))}` : '';
    return `${indent}${rel(m)}  ${theme.dim(t(lang, 'statusTokens', { n: m.tokens }))}${cut}`;
  });
  return [t(lang, 'memoryHead', { cap }), ...lines].join('\n');
}

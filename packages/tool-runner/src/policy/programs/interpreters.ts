/** Interpreters and shells: inline code and script files. */
import { isInfoOnly, shortCluster } from '../args';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { folderDelete } from './build-deletes';
import { readOnly } from './common';
import { isOutsideWorkspace, normalisePathArg } from '../paths';
import { isLlmBaseScript, isSlothtoolScript, llmBaseConfigWrite, selfConfig, slothtoolSelfConfig } from '../self-config';

export const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'fish',
  'csh',
  'tcsh',
  'ash',
  'yash',
  'pwsh',
  'powershell',
  'cmd',
  'node',
  'nodejs',
  'perl',
  'ruby',
  'irb',
  'php',
  'lua',
  'luajit',
  'Rscript',
  'R',
  'julia',
  'osascript',
  'tclsh',
  'wish',
  'java',
  'ts-node',
  'tsx',
  'groovy',
  'scala',
  'elixir',
  'erl',
  'guile',
  'racket',
  'runghc',
  'ghci',
  'pypy',
  'pypy3',
  'jshell',
  'kotlin',
  'swift',
  'dotnet-script',
  'expect',
  'gawk-shell',
  'vite-node',
  'esno',
]);

/** Inline-code option letters by interpreter (short clusters containing one are inline code). */
export const INLINE: Record<string, { short: string; long: string[] }> = {
  shell: { short: 'c', long: ['--command', '--init-file', '--rcfile'] },
  node: { short: 'epr', long: ['--eval', '--print', '--require', '--import', '--loader', '--experimental-loader', '--input-type'] },
  python: { short: 'c', long: ['--command'] },
  perl: { short: 'eEnpixM', long: [] },
  ruby: { short: 'eriIn', long: ['--require'] },
  php: { short: 'rRBEFa', long: ['--run'] },
  other: { short: 'e', long: ['--eval', '--execute', '--expression'] },
};

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'yash']);

export function interpreterKind(name: string): keyof typeof INLINE {
  if (SHELLS.has(name) || name === 'pwsh' || name === 'powershell' || name === 'cmd') return 'shell';
  if (name === 'node' || name === 'nodejs' || name === 'ts-node' || name === 'tsx' || name === 'vite-node' || name === 'esno')
    return 'node';
  if (/^python[0-9.]*$/.test(name) || name.startsWith('pypy')) return 'python';
  if (name === 'perl') return 'perl';
  if (name === 'ruby' || name === 'irb') return 'ruby';
  if (name === 'php') return 'php';
  return 'other';
}

export const PYTHON_MODULES: Record<string, Finding['level']> = {
  'json.tool': 'L1',
  py_compile: 'L1',
  compileall: 'L1',
  pytest: 'L1',
  unittest: 'L1',
  mypy: 'L1',
  ruff: 'L1',
  black: 'L1',
  'http.server': 'L1',
  venv: 'L1',
  pip: 'L1',
};

/**
 * A script file an interpreter runs: one of the workspace's own is project code, asked like
 * `npm test` and run in the approved step's sandbox (DESIGN §9); one elsewhere cannot be judged
 * (L2, unless allowedPrograms or a trusted code folder names it).
 */
export function scriptFinding(p: string, script: string, ctx: JudgeCtx, certain = true): Finding {
  // A URL (`deno run https://…`, `node data:…`) is nobody's file.
  const abs = certain && ctx.cwd && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(script) ? normalisePathArg(script, ctx) : undefined;
  if (abs !== undefined && !isOutsideWorkspace(abs, ctx)) return finding('project.script', 'L1', { p, s: script });
  return finding('interp.script', 'L2', { p, a: script }, { allowable: true });
}

/**
 * Options known to take no separate value, by interpreter kind: only after these is the first
 * operand surely the script (`python3 -W ignore /tmp/x.py` runs /tmp/x.py, not `ignore`). An
 * option with its value attached (`--opt=value`) is unambiguous for every kind.
 */
const FLAG_ONLY: Record<keyof typeof INLINE, RegExp> = {
  shell: /^(-[euxvn]+|--norc|--noprofile|--posix)$/,
  node: /^--(no-warnings|no-deprecation|enable-source-maps|trace-(warnings|uncaught|deprecation)|throw-deprecation|expose-gc|preserve-symlinks)$/,
  python: /^-[uBOIPEsSqbdRv]+$/,
  perl: /^-[wWTtsl]+$/,
  ruby: /^-[wWvd]+$/,
  php: /^-[nqH]+$/,
  other: /^$/,
};

/**
 * PowerShell reads a parameter from any unambiguous prefix of its name, in any case, after `-`
 * or `/`: `-Command`, `-comm`, `-c`, `-EncodedCommand`, `-enc`, `-e`, `-ec`, `-CommandWithArgs`,
 * `-cwa` all run the text that follows.
 */
function powershellInline(a: string): boolean {
  const name = /^[-/]+([A-Za-z]+)(?::.*)?$/.exec(a)?.[1]?.toLowerCase();
  if (!name) return false;
  return name === 'ec' || name === 'cwa' || ['command', 'encodedcommand', 'commandwithargs'].some((n) => n.startsWith(name));
}

export function judgeInterpreter(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  if (isInfoOnly(args, name === 'node' || name === 'nodejs' ? ['-v'] : ['-v', '-version']))
    return [finding('interp.info', 'L0', { p: name })];
  if (args.length === 0) return [finding('interactive', 'L2', { p: name })];
  const kind = interpreterKind(name);
  const spec = INLINE[kind];
  const powershell = name === 'pwsh' || name === 'powershell';
  let certain = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (powershell && powershellInline(a)) return [finding('interp.inline', 'L2', { p: name, a })];
    if (a === '--' || !a.startsWith('-') || a === '-') {
      const script = a === '--' ? args[i + 1] : a;
      if (script === undefined || script === '-') return [finding('interactive', 'L2', { p: name })];
      if (kind === 'node' && isSlothtoolScript(script)) {
        const own = slothtoolSelfConfig(args.slice(args.indexOf(script) + 1));
        if (own) return [own];
      }
      if (kind === 'node' && isLlmBaseScript(script)) {
        const write = llmBaseConfigWrite(args.slice(args.indexOf(script) + 1));
        if (write) return [selfConfig(`llm-base ${write}`)];
      }
      // `node --check file` only parses the file (the options before it were read above: none loads code).
      if ((name === 'node' || name === 'nodejs') && args.slice(0, i).some((o) => o === '--check' || o === '-c'))
        return [readOnly(`${name} --check`)];
      return [scriptFinding(name, script, ctx, certain)];
    }
    if (kind === 'python' && (a === '-m' || (shortCluster(a)?.endsWith('m') ?? false))) {
      const mod = a === '-m' ? (args[i + 1] ?? '') : a.slice(a.indexOf('m') + 1) || (args[i + 1] ?? '');
      if (mod === 'pip') {
        const sub = args[i + 2];
        if (['list', 'show', 'freeze', 'check', '--version'].includes(sub)) {
          // The working folder is first on sys.path for -m: `./pip/__main__.py` would run. -P
          // (3.11+) or -I keeps it off; without one it is workspace code.
          const safePath = args
            .slice(0, i + 1)
            .some((f) => /^-[A-Za-z]/.test(f) && /[PI]/.test(f.slice(1, f.includes('m') ? f.indexOf('m') : undefined)));
          if (safePath) return [readOnly(`${name} -m pip ${sub}`)];
          return [finding('workspace.python_path', 'L1', { p: `${name} -m pip ${sub}`, m: 'pip' })];
        }
        return [finding('install', 'L1', { p: `${name} -m pip`, s: sub ?? '' })];
      }
      if ((mod === 'venv' || mod === 'virtualenv') && args.includes('--clear')) {
        const dirs = args.slice(args.indexOf(mod) + 1).filter((x) => !x.startsWith('-'));
        return dirs.length
          ? dirs.flatMap((d) => folderDelete(`${name} -m ${mod} --clear`, d, '--clear', ctx))
          : [finding('arg.unparsed', 'L2', { p: `${name} -m ${mod}`, a: '--clear' })];
      }
      const level = PYTHON_MODULES[mod];
      if (level === 'L0') return [readOnly(`${name} -m ${mod}`)];
      if (level === 'L1') return [finding('project.script', 'L1', { p: `${name} -m`, s: mod })];
      return [finding('interp.script', 'L2', { p: `${name} -m`, a: mod }, { allowable: true })];
    }
    const c = shortCluster(a);
    if ((c && [...spec.short].some((l) => c.includes(l))) || spec.long.some((l) => a === l || a.startsWith(l + '='))) {
      return [finding('interp.inline', 'L2', { p: name, a })];
    }
    if (kind === 'node' && (a === '--test' || a === '--run')) return [finding('project.script', 'L1', { p: name, s: a })];
    // A debugger port (`--inspect=0.0.0.0:9229`) lets whoever reaches it run code: never "surely the script".
    const attached = /^--[A-Za-z][\w-]*=/.test(a) && !/^--(inspect|debug)/.test(a);
    if (powershell || !(FLAG_ONLY[kind].test(a) || attached)) certain = false;
  }
  return [finding('interactive', 'L2', { p: name })];
}

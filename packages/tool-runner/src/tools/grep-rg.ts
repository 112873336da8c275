import { spawn } from 'child_process';
import fs = require('fs');
import path = require('path');
import { isInside, realDir } from '../workspace';
import { GREP_MAX_FILE_BYTES, isSecretFile, type GrepOutcome, type GrepQuery, type HitCollector } from './grep-hits';

/**
 * ripgrep on PATH: the first `rg` in an absolute PATH folder that is not inside the workspace
 * (a program the workspace ships is project code, not the ripgrep it was judged as).
 */
export function findRipgrep(env: NodeJS.ProcessEnv, workspace: string): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir) || isInside(realDir(dir), workspace)) continue;
    const p = path.join(dir, 'rg');
    try {
      fs.accessSync(p, fs.constants.X_OK);
      // A link on PATH that leads into the workspace is the workspace's program too.
      if (fs.statSync(p).isFile() && !isInside(fs.realpathSync(p), workspace)) return p;
    } catch {
      // not here: the next folder
    }
  }
  return undefined;
}

/**
 * The options every rg run gets, and the only ones: no configuration file (RIPGREP_CONFIG_PATH
 * could add `--pre`), hidden files searched but `.git` skipped, `.gitignore` honoured outside a
 * git repository too (as the Node walk does), files over 10 MiB skipped, links not followed
 * (rg's default). Never `--pre`, `--search-zip` or `--follow`: nothing here runs another program.
 */
const FIXED = ['--no-config', '--hidden', '--no-require-git', '--glob=!.git', `--max-filesize=${GREP_MAX_FILE_BYTES}`, '--color=never'];

/** A file name as a literal gitignore-style glob, anchored at the search root. */
export function literalGlob(rel: string): string {
  return '/' + rel.replace(/[\\*?[\]{}!]/g, (c) => `\\${c}`);
}

interface RgRun {
  code: number | null;
  stderr: string;
  stopped?: 'time' | 'aborted' | 'count';
}

/** Run rg (argv, no shell, stdin closed, the environment emptied), feeding each NUL- or newline-ended record to `onRecord`. */
function runRg(rg: string, args: string[], cwd: string, q: GrepQuery, sep: string, onRecord: (rec: string) => boolean): Promise<RgRun> {
  return new Promise((resolve) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: {}, windowsHide: true });
    let stopped: RgRun['stopped'];
    let rest = '';
    let stderr = '';
    const stop = (why: NonNullable<RgRun['stopped']>): void => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('time'), Math.max(1, q.deadline - q.now()));
    const onAbort = (): void => stop('aborted');
    q.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const parts = (rest + chunk).split(sep);
      rest = parts.pop() ?? '';
      for (const rec of parts) {
        if (!onRecord(rec)) {
          stop('count');
          return;
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    const finish = (code: number | null): void => {
      clearTimeout(timer);
      q.signal?.removeEventListener('abort', onAbort);
      if (!stopped && rest) onRecord(rest);
      resolve({ code, stderr, ...(stopped ? { stopped } : {}) });
    };
    child.on('error', (err) => {
      stderr += err.message;
      finish(null);
    });
    child.on('close', (code) => finish(code));
  });
}

/** Secret files excluded by name at most; past it the Node fallback searches instead. */
const MAX_EXCLUDED = 2000;

const strip = (p: string): string => (p.startsWith('./') ? p.slice(2) : p);

/**
 * fs.grep with ripgrep: one listing run (names only, no contents) finds the secret files in
 * scope, which the search run is then told to skip by exact name, so whether a secret file holds
 * the pattern is never even computed; then the search run reports `file NUL line:text` records.
 */
export async function grepWithRg(rg: string, q: GrepQuery, hits: HitCollector): Promise<GrepOutcome> {
  const cwd = q.kind === 'dir' ? q.root : path.dirname(q.root);
  const target = q.kind === 'dir' ? '.' : path.basename(q.root);
  const userGlob = q.glob ? [`--glob=${q.glob}`] : [];
  const skipped: string[] = [];
  if (q.kind === 'file') {
    if (isSecretFile(target)) return { engine: 'rg', skipped: [target] };
  } else {
    const listed = await runRg(rg, [...FIXED, '--files', '--null', ...userGlob, '--', target], cwd, q, '\0', (rec) => {
      const rel = strip(rec);
      if (rel && isSecretFile(rel)) skipped.push(rel);
      return true;
    });
    if (listed.stopped === 'time' || listed.stopped === 'aborted') return { engine: 'rg', skipped, stopped: listed.stopped };
    // Each skipped file is one argument; thousands of them (a folder of test keys) are the Node walk's job.
    if (skipped.length > MAX_EXCLUDED) return { engine: 'rg', skipped, tooManySkipped: true };
  }
  const args = [
    ...FIXED,
    '--line-number',
    '--with-filename',
    '--null',
    '--no-heading',
    q.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...userGlob,
    ...skipped.map((rel) => `--glob=!${literalGlob(rel)}`),
    `--regexp=${q.pattern}`,
    '--',
    target,
  ];
  const run = await runRg(rg, args, cwd, q, '\n', (rec) => {
    const nul = rec.indexOf('\0');
    if (nul < 0) return true;
    const rel = q.kind === 'dir' ? strip(rec.slice(0, nul)) : '';
    const line = parseInt(rec.slice(nul + 1), 10);
    // A file skipped as a secret never reaches the model, whatever rg was told.
    if (!Number.isFinite(line) || (rel && isSecretFile(rel))) return true;
    return hits.add(rel, line);
  });
  if (run.code === 2 && hits.total === 0 && !run.stopped && run.stderr.trim()) {
    const said = run.stderr.trim().slice(0, 600);
    return { engine: 'rg', skipped, ...(/glob/i.test(said) && !/regex/i.test(said) ? { globError: said } : { patternError: said }) };
  }
  return { engine: 'rg', skipped, ...(run.stopped ? { stopped: run.stopped } : {}) };
}

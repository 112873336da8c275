import { secretFindings } from '../policy/paths';
import type { WalkStop } from './fs-walk';

/** Files larger than this are not searched (the limit of fs.read too). */
export const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Matching lines counted at most; past it the search stops and `total` is a lower bound. */
export const GREP_COUNT_LIMIT = 20_000;

/** What one grep engine is asked. */
export interface GrepQuery {
  /** Real path of the workspace (its ignore files apply). */
  workspace: string;
  /** Real path of the folder or file to search. */
  root: string;
  kind: 'file' | 'dir';
  pattern: string;
  ignoreCase: boolean;
  /** Only files whose name (no `/` in the glob) or relative path matches. */
  glob?: string;
  /** Milliseconds since the epoch when the search gives up. */
  deadline: number;
  now(): number;
  signal?: AbortSignal;
}

/** What an engine found; the lines are read again (and redacted) for the files that are shown. */
export interface GrepOutcome {
  engine: 'rg' | 'node';
  /** The invalid pattern's error, as the engine said it. */
  patternError?: string;
  /** rg refused the `glob` (the fallback reads globs otherwise: it is not asked). */
  globError?: string;
  stopped?: WalkStop | 'count';
  /** Files not searched because they hold secrets, relative to the root. */
  skipped: string[];
  /** rg: too many secret files to exclude by name; nothing was searched (the Node fallback takes over). */
  tooManySkipped?: boolean;
}

/** Whether a file (path relative to the search root, with `/`) is a secret store: never searched, only named. */
export function isSecretFile(rel: string): boolean {
  return secretFindings([rel]).length > 0;
}

/**
 * Matching lines as engines report them: the first `max` kept per file (in order), every one
 * counted. Tells the engine when counting should stop.
 */
export class HitCollector {
  readonly files = new Map<string, number[]>();
  total = 0;
  private kept = 0;

  constructor(private readonly max: number) {}

  /** Record a matching line; false once the count limit is passed (the engine stops). */
  add(rel: string, line: number): boolean {
    this.total++;
    if (this.kept < this.max) {
      this.kept++;
      const list = this.files.get(rel);
      if (list) list.push(line);
      else this.files.set(rel, [line]);
    }
    return this.total < GREP_COUNT_LIMIT;
  }
}

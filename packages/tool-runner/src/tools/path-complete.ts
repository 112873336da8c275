/**
 * Completing a path a person is typing (`@src/ma` + Tab in `ai -i`) with the walker fs.glob uses:
 * `.gitignore` and `.ignore` respected, `.git` skipped, links not followed, only inside the
 * workspace, and secret files (the ones fs.read asks about or refuses) never offered.
 */
import fs = require('fs');
import path = require('path');
import { secretFindings } from '../policy/paths';
import { isInside } from '../workspace';
import { walkFiles } from './fs-walk';

export interface PathCompletionOptions {
  /** The workspace (git root or cwd); nothing outside it is offered. */
  workspace: string;
  /** Where relative paths start. */
  cwd: string;
  /** What was typed so far (`src/ma`, `./docs/`, ``). */
  partial: string;
  /** Entries looked at, at most (default 20 000): a huge tree answers with what was found. */
  maxEntries?: number;
  /** Candidates at most (default 200). */
  max?: number;
}

function real(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The next path segment of each file that can complete `partial`: files as they are, folders with
 * a trailing `/` (only folders holding a file the walk would list), sorted, each as the whole
 * path to put after `@`. Hidden names only once a `.` is typed. Pure apart from reading folders.
 */
export function completeWorkspacePath(options: PathCompletionOptions): string[] {
  const { partial } = options;
  const cut = partial.lastIndexOf('/');
  const dirPart = partial.slice(0, cut + 1);
  const namePart = partial.slice(cut + 1);
  const workspace = real(options.workspace);
  const root = real(path.resolve(options.cwd, dirPart || '.'));
  if (!workspace || !root || !isInside(root, workspace) || !fs.statSync(root).isDirectory()) return [];
  const showHidden = namePart.startsWith('.');
  const wanted = (name: string) => name.startsWith(namePart) && (showHidden || !name.startsWith('.'));
  const dirs = new Set<string>();
  const files = new Set<string>();
  const max = options.max ?? 200;
  walkFiles(
    {
      workspace,
      root,
      maxEntries: options.maxEntries ?? 20_000,
      // Only into folders that can be offered and are not known yet to hold a file.
      enter: (relDir) => {
        const first = relDir.split('/')[0];
        return wanted(first) && !dirs.has(first);
      },
    },
    (file) => {
      const [first, ...rest] = file.rel.split('/');
      if (rest.length) {
        dirs.add(first);
      } else if (wanted(first) && !secretFindings([file.abs, file.abs.toLowerCase()]).length) {
        files.add(first);
      }
      return dirs.size + files.size < max;
    },
  );
  return [...[...dirs].map((d) => `${dirPart}${d}/`), ...[...files].map((f) => `${dirPart}${f}`)].sort();
}

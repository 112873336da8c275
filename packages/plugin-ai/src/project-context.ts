import * as fs from 'fs';
import * as path from 'path';
import { truncateHead } from './tokens';

/** The git root above `cwd` (a folder holding `.git`), or undefined. Pure file-system walk:
 * no git process at start-up. */
export function findGitRoot(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Project instructions from `AGENTS.md` in the cwd, else at the git root, capped. */
export function readProjectContext(cwd: string, maxTokens: number): { file: string; text: string } | undefined {
  if (maxTokens <= 0) return undefined;
  const candidates = [path.join(cwd, 'AGENTS.md')];
  const root = findGitRoot(cwd);
  if (root) candidates.push(path.join(root, 'AGENTS.md'));
  for (const file of candidates) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // absent or unreadable: try the next place, as documented
    }
    if (!text.trim()) continue;
    return { file, text: truncateHead(text.trim(), maxTokens) };
  }
  return undefined;
}

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/**
 * For real-sandbox tests that, when jest runs as root (CI, containers), also run as a normal user:
 * uid 65534 (nobody), through setpriv.
 */
export const NOBODY = 65534;

/** setpriv's arguments that run `command` as NOBODY (its group too, no supplementary groups). */
export const asNobody = (...command: string[]): string[] => [
  '--reuid',
  String(NOBODY),
  '--regid',
  String(NOBODY),
  '--clear-groups',
  ...command,
];

/** Whether NOBODY can read `file`: a checkout under a private folder (a root-only /tmp) cannot be, and the test says so. */
export const nobodyCanRead = (setpriv: string, file: string): boolean => spawnSync(setpriv, asNobody('test', '-r', file)).status === 0;

/**
 * A temp folder below /var/tmp (not the private /tmp of root, so NOBODY can reach it) with a home,
 * its workspace `home/proj` and a `tmp` made, and `extra` folders below the root; owned by NOBODY
 * when the tests run as root. Remove `root` after the processes in it have exited.
 */
export function nobodyPlace(prefix: string, extra: string[] = []): { root: string; home: string; ws: string; tmp: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', prefix)));
  const home = path.join(root, 'home');
  const ws = path.join(home, 'proj');
  const tmp = path.join(root, 'tmp');
  for (const d of [ws, tmp, ...extra.map((e) => path.join(root, e))]) fs.mkdirSync(d, { recursive: true });
  if (process.getuid?.() === 0) for (const d of [root, home, ws, tmp]) fs.chownSync(d, NOBODY, NOBODY);
  fs.chmodSync(root, 0o755);
  return { root, home, ws, tmp };
}

import path = require('path');
import { under } from './home-view';
import { HOME_SECRET_STORES } from './secrets';
import { envFileClass } from './workspace-secrets';

/** Why a step the sandbox stopped is not offered again with more rights. */
export type NoRetry = 'no_path' | 'outside' | 'protected' | 'no_person' | 'network';

export interface RetryPlaces {
  /** The workspace, a real path. */
  workspace: string;
  home: string;
  slothtoolHome: string;
  /** The real path of `p` (links followed on its longest existing prefix). */
  real(p: string): string;
}

/**
 * Whether a read-only (L0) step the sandbox stopped may be offered again with the workspace
 * writable (the approved-step sandbox): only for a write it names, whose target (links
 * resolved) is inside the workspace and is none of what stays protected there (`.git/hooks`,
 * `.git/config`, `.env` files, a secret store, the SlothTool home). A denied connection, a write
 * at L1 (the workspace was writable already) or one nobody can be asked about is never offered.
 * Pure over `places.real`.
 */
export function retryRefusal(
  denied: { kind: 'write' | 'network'; path?: string },
  level: 'L0' | 'L1',
  places: RetryPlaces,
  person: boolean,
): NoRetry | undefined {
  if (!person) return 'no_person';
  if (denied.kind === 'network') return 'network';
  if (!denied.path) return 'no_path';
  const target = places.real(denied.path);
  const ws = places.workspace;
  // A workspace that is the home folder (or above it) is no workspace to write: everything is outside it.
  if (!under(target, ws) || under(places.home, ws)) return 'outside';
  const rel = path.relative(ws, target).split(path.sep);
  const protectedPlace =
    level === 'L1' ||
    (rel[0] === '.git' && (rel[1] === 'hooks' || rel[1] === 'config')) ||
    envFileClass(rel[0]) === 'secret' ||
    under(target, places.slothtoolHome) ||
    HOME_SECRET_STORES.some((s) => under(target, path.join(places.home, s)));
  return protectedPlace ? 'protected' : undefined;
}

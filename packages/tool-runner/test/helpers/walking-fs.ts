import * as fs from 'fs';
import type { PathFs } from '../../src/workspace';

/**
 * The same calls as the workspace module's own, in another object: given it, resolvePath walks every
 * component (with its default it takes realpath for an existing path on Linux).
 */
export const walkingFs: PathFs = {
  realpathSync: (p) => fs.realpathSync.native(p),
  statSync: (p) => fs.statSync(p),
  lstatSync: (p) => fs.lstatSync(p, { throwIfNoEntry: false }),
  readlinkSync: (p) => fs.readlinkSync(p, 'utf8'),
};

/** Package version, read from package.json at run time so it never drifts. */
import { packageJson } from './lazy-modules';

export const VERSION: string = packageJson().version;

/** Package version, read from package.json at run time so it never drifts. */
export const VERSION: string = require('../package.json').version;

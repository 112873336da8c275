#!/usr/bin/env node
'use strict';
// The CLI from its bundle (dist/cli.js, made by scripts/bundle.js) with V8's code cache under
// the SlothTool home (docs/architecture.md §6); from lib/ when there is no bundle.
const path = require('path');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (require('fs').existsSync(bundle)) {
  const { loadBundle, codeCacheDir } = require('../dist/load.js'); // shared/code-cache, bundled beside it
  loadBundle(bundle, { cacheDir: codeCacheDir(), parent: module }).main(process.argv.slice(2));
} else {
  require('../lib/cli.js').main(process.argv.slice(2));
}

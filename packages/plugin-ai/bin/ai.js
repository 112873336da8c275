#!/usr/bin/env node
'use strict';
// The CLI from its bundle (dist/cli.js, made by scripts/bundle.js) with V8's code cache under
// the SlothTool home, so a start parses and compiles nothing again (docs/architecture.md §6);
// from lib/ when there is no bundle, and for --version and --help, which need almost nothing.
const path = require('path');
const args = process.argv.slice(2);
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (!(args.length === 1 && /^(-v|--version|-h|--help)$/.test(args[0])) && require('fs').existsSync(bundle)) {
  const { loadBundle, codeCacheDir } = require('../dist/load.js'); // shared/code-cache, bundled beside it
  loadBundle(bundle, { cacheDir: codeCacheDir(), parent: module }).main(args, { bundled: true });
} else {
  require('../lib/cli.js').main(args);
}

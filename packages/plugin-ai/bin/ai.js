#!/usr/bin/env node
'use strict';
// The CLI from its bundle (dist/cli.js, made by scripts/bundle.js) with V8's code cache under
// the SlothTool home, so a start parses and compiles nothing again (docs/architecture.md §6);
// from lib/ when there is no bundle, and for --version and --help, which need almost nothing.
// A bundle that cannot be loaded is said so, and lib/ runs instead.
const fs = require('fs');
const path = require('path');
const args = process.argv.slice(2);
const dist = path.join(__dirname, '..', 'dist');
const bundle = path.join(dist, 'cli.js');
let cli;
if (!(args.length === 1 && /^(-v|--version|-h|--help)$/.test(args[0])) && fs.existsSync(bundle)) {
  try {
    const { loadBundle, codeCacheDir } = require(path.join(dist, 'load.js')); // shared/code-cache, bundled beside it
    cli = loadBundle(bundle, { cacheDir: codeCacheDir(), parent: module });
  } catch (err) {
    const { readLanguage, slothtoolHome } = require('../lib/home.js');
    const detail = String((err && err.message) || err).split('\n')[0];
    process.stderr.write(require('../lib/i18n.js').t(readLanguage(slothtoolHome()), 'bundleUnusable', { file: bundle, detail }) + '\n');
  }
}
if (cli) cli.main(args, { bundled: true });
else require('../lib/cli.js').main(args);

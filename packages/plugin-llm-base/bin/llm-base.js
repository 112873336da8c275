#!/usr/bin/env node
'use strict';
// The CLI from its bundle (dist/cli.js, made by scripts/bundle.js) with V8's code cache under
// the SlothTool home (docs/architecture.md §6); from lib/ when there is no bundle, or when it
// cannot be loaded (said so).
const fs = require('fs');
const path = require('path');
const dist = path.join(__dirname, '..', 'dist');
const bundle = path.join(dist, 'cli.js');
let cli;
if (fs.existsSync(bundle)) {
  try {
    const { loadBundle, codeCacheDir } = require(path.join(dist, 'load.js')); // shared/code-cache, bundled beside it
    cli = loadBundle(bundle, { cacheDir: codeCacheDir(), parent: module });
  } catch (err) {
    const { readLanguage, t } = require('../lib/i18n.js');
    const detail = String((err && err.message) || err).split('\n')[0];
    process.stderr.write(t(readLanguage(), 'bundleUnusable', { file: bundle, detail }) + '\n');
  }
}
(cli || require('../lib/cli.js')).main(process.argv.slice(2));

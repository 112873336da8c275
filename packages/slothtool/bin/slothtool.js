#!/usr/bin/env node
'use strict';
// The host's own commands (install, list, config…, help) run from its bundle (dist/cli.js, made
// by scripts/bundle.js) with V8's code cache under the SlothTool home (docs/architecture.md §6);
// running a plugin that runs in this process (`slothtool ai …`) loads only that path, as one plain
// file (dist/alias.js, no cache: it is small). A bundle that cannot be loaded is said so, and lib/
// runs instead.
const fs = require('fs');
const path = require('path');
const args = process.argv.slice(2);
const dist = path.join(__dirname, '..', 'dist');
const bundle = path.join(dist, 'cli.js');
const alias = path.join(dist, 'alias.js');
let cli;
let plugin;
if (require('../lib/commands.js').runsAlias(args)) {
  // A plugin that runs in this process starts from one small file (scripts/bundle.js); anything
  // else goes to the whole CLI. lib/ when the file is not there or unusable.
  try {
    plugin = (fs.existsSync(alias) ? require(alias) : require('../lib/alias-start.js')).inProcessEntry(args);
  } catch (err) {
    process.stderr.write(require('../lib/cli.js').bundleUnusableMessage(alias, err) + '\n');
  }
} else if (fs.existsSync(bundle)) {
  try {
    const { loadBundle, codeCacheDir } = require(path.join(dist, 'load.js')); // shared/code-cache, bundled beside it
    cli = loadBundle(bundle, { cacheDir: codeCacheDir(), parent: module });
  } catch (err) {
    process.stderr.write(require('../lib/cli.js').bundleUnusableMessage(bundle, err) + '\n');
  }
}
if (plugin) plugin.start();
else (cli || require('../lib/cli.js')).main(args);

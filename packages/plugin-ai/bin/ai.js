#!/usr/bin/env node
require('../lib/cli.js').main(process.argv.slice(2));

'use strict';
// What `require('zod')` gives the code of plugin-ai's bundle (scripts/bundle.js, plugin
// `zod-on-first-use`): zod itself, loaded when the bundle first reads one of its exports, not
// when a module that imports it is loaded. A turn that only talks reads no file and no reply
// through zod's schemas (their checks run first where docs/architecture.md §6 says so), so it
// never loads zod: its modules and first schemas cost a start 10–13 ms. zod is told to check
// without compiling a parser per object schema (`jitless`: V8's code cache cannot keep those)
// before any schema is built. The lib/ path (no bundle) loads zod as it always did.
let zod;

function real() {
  if (zod === undefined) {
    zod = require('zod');
    zod.config({ jitless: true });
  }
  return zod;
}

module.exports = new Proxy(
  {},
  {
    // Asked by the interop of `import * as`: answered without loading.
    get: (_target, key) => (key === '__esModule' ? true : real()[key]),
    has: (_target, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_target, key) => {
      const d = Object.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
  },
);

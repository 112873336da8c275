'use strict';
// One file for each path that must start fast (docs/architecture.md §6): esbuild bundles
// plugin-ai's CLI (with tool-runner, shared, json-patch and zod) into packages/plugin-ai/dist/cli.js
// and llm-base's library (with the openai SDK; zod stays outside) into
// packages/plugin-llm-base/dist/index.js, its CLI (with zod) into dist/cli.js, and the host's own
// commands into packages/slothtool/dist/cli.js.
// Their bins load them through @holic512/shared/lib/code-cache, which keeps V8's code cache
// for them under the SlothTool home; without a bundle they load lib/ as before.
//
// A bundle is one function expression, `(function (exports, require, module, __filename,
// __dirname) {…})`, so the loader compiles the file's text as it is (no wrapped copy of it in
// memory), and ASCII only, so V8 keeps it as a one-byte string (half the memory of a two-byte one).
// Packages a path loads only sometimes stay outside (`external`): required from node_modules
// when used. zod's locales other than English stay outside the same way (zod loads all ~45 of
// them with its index; `z.locales.xx` still works, loaded on first use).
//
// `node scripts/bundle.js` builds them; ensure.js (npm test, npm start) and the release do too.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const pkg = (name) => path.join(root, 'packages', name);

/** The bundles: entry (built by tsc into lib/), output, what stays outside. */
const BUNDLES = [
  {
    entry: path.join(pkg('plugin-ai'), 'lib/cli.js'),
    out: path.join(pkg('plugin-ai'), 'dist/cli.js'),
    // The ACP SDK (`ai --acp`) and OpenTelemetry (only when OTEL_EXPORTER_OTLP_ENDPOINT is set)
    // load from node_modules on the paths that use them, never with a talking turn.
    external: [
      '@modelcontextprotocol/sdk',
      'marked',
      'marked-terminal',
      'prompts',
      'yaml',
      'diff',
      'entities',
      'ignore',
      'picomatch',
      '@agentclientprotocol/sdk',
      '@opentelemetry/*',
    ],
  },
  {
    // The spawn helper's child is its own process: a script beside the bundle (tool-runner finds
    // it next to the code that starts it: `__dirname` is dist/ in the bundle).
    entry: path.join(pkg('tool-runner'), 'lib/spawn-helper-child.js'),
    out: path.join(pkg('plugin-ai'), 'dist/spawn-helper-child.js'),
    plain: true,
  },
  {
    // The launcher that keeps a step granted the network off the host's loopback (tool-runner
    // sandbox/net-jail.ts): its own process, a script beside the bundle like the spawn helper's.
    entry: path.join(pkg('tool-runner'), 'lib/sandbox/net-jail-launcher.js'),
    out: path.join(pkg('plugin-ai'), 'dist/net-jail-launcher.js'),
    plain: true,
  },
  {
    // The loader itself, beside the bundle, so a bin reaches it by a relative path: finding
    // @holic512/shared in node_modules and loading its two modules cost a start 3 ms.
    entry: path.join(pkg('shared'), 'lib/code-cache.js'),
    out: path.join(pkg('plugin-ai'), 'dist/load.js'),
    plain: true,
  },
  {
    entry: path.join(pkg('shared'), 'lib/code-cache.js'),
    out: path.join(pkg('plugin-llm-base'), 'dist/load.js'),
    plain: true,
  },
  {
    // The host's own commands (`slothtool list`, install, config, help); running a plugin by its
    // alias loads lib/ (a few modules), which the bundle's larger cache would only slow down.
    entry: path.join(pkg('slothtool'), 'lib/cli.js'),
    out: path.join(pkg('slothtool'), 'dist/cli.js'),
  },
  {
    entry: path.join(pkg('shared'), 'lib/code-cache.js'),
    out: path.join(pkg('slothtool'), 'dist/load.js'),
    plain: true,
  },
  {
    // Running a plugin that runs in this process by its alias (`slothtool ai …`): the few modules
    // of that path (slothtool src/alias-start.ts) as one plain file, without the code cache
    // (loading the cache and its loader costs more than this path compiles), so a start reads one
    // small file instead of nine modules (docs/architecture.md §6).
    entry: path.join(pkg('slothtool'), 'lib/alias-start.js'),
    out: path.join(pkg('slothtool'), 'dist/alias.js'),
    plain: true,
    external: ['write-file-atomic'],
  },
  {
    // zod and @holic512/shared stay outside: ai hands it its own (shared/code-cache `provide`,
    // plugin-ai config/lazy-llm-base.ts), so a process has one zod, not one per bundle (615 KB →
    // 360 KB), and one redaction gate, whose tables were built twice; anyone else loading it gets
    // node_modules' copies.
    entry: path.join(pkg('plugin-llm-base'), 'lib/index.js'),
    out: path.join(pkg('plugin-llm-base'), 'dist/index.js'),
    external: ['ollama', 'prompts', 'zod', '@holic512/shared', '@holic512/shared/*'],
    inject: [path.join(__dirname, 'web-lite-inject.mjs')],
    // What ai hands it must cover every module of shared it requires.
    provided: () => Object.keys(require(path.join(pkg('plugin-ai'), 'lib/config/lazy-llm-base.js')).SHARED_FOR_LLM_BASE),
  },
  {
    // llm-base's own CLI (`slothtool llm-base …`): its bin loads this one.
    entry: path.join(pkg('plugin-llm-base'), 'lib/cli.js'),
    out: path.join(pkg('plugin-llm-base'), 'dist/cli.js'),
    external: ['ollama', 'prompts'],
    inject: [path.join(__dirname, 'web-lite-inject.mjs')],
  },
];

/** What the loader checks a bundle begins with (shared is built by tsc before this runs). */
const wrapHead = () => require(path.join(root, 'packages/shared/lib/code-cache.js')).BUNDLE_HEAD;
const WRAP_TAIL = '\n})';

/** zod's locales index, with every locale but English required on first use from node_modules. */
const zodLocales = {
  name: 'zod-locales',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.cjs$/ }, (args) => {
      const src = fs.readFileSync(args.path, 'utf8');
      const found = [...src.matchAll(/var (\w+)_js_1 = require\("\.\/([\w-]+)\.cjs"\);\s*Object\.defineProperty\(exports, "(\w+)"/g)];
      if (found.length < 10 || !found.some((m) => m[2] === 'en')) {
        throw new Error(
          `${args.path} no longer has the shape scripts/bundle.js expects (one require and one getter per locale); update the zod-locales plugin`,
        );
      }
      const lines = ['"use strict";', 'Object.defineProperty(exports, "__esModule", { value: true });'];
      for (const [, , file, name] of found) {
        const load = file === 'en' ? 'require("./en.cjs")' : `require(${JSON.stringify(`zod/v4/locales/${file}.cjs`)})`;
        lines.push(
          `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: function () { var m = ${load}; return m && m.__esModule ? m.default : m; } });`,
        );
      }
      return { contents: lines.join('\n'), loader: 'js', resolveDir: path.dirname(args.path) };
    });
    build.onResolve({ filter: /^zod\/v4\/locales\// }, (args) => ({ path: args.path, external: true }));
  },
};

/** The first character outside ASCII in `text`, with its line, or undefined. */
function firstNonAscii(text) {
  const i = text.search(/[^\x00-\x7f]/);
  if (i < 0) return undefined;
  const line = text.slice(0, i).split('\n').length;
  return `U+${text.codePointAt(i).toString(16).toUpperCase().padStart(4, '0')} at line ${line}: …${text.slice(Math.max(0, i - 40), i + 10)}…`;
}

/** Build every bundle; throws with what went wrong. */
async function bundleAll() {
  const esbuild = require('esbuild');
  const WRAP_HEAD = wrapHead();
  for (const b of BUNDLES) {
    const result = await esbuild.build({
      entryPoints: [b.entry],
      outfile: b.out,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      minify: true,
      charset: 'ascii',
      legalComments: 'none',
      logLevel: 'silent',
      external: b.external || [],
      inject: b.inject || [],
      plugins: b.plain ? [] : [zodLocales],
      banner: b.plain ? undefined : { js: WRAP_HEAD },
      footer: b.plain ? undefined : { js: WRAP_TAIL },
      write: false,
    });
    let text = result.outputFiles[0].text;
    // The build's SHA-1 after the head: the loader names the text by it (and the file's stamp)
    // instead of hashing the whole file on every start (shared/code-cache textDigest).
    if (!b.plain) text = WRAP_HEAD + `/*sha1:${crypto.createHash('sha1').update(text).digest('hex')}*/` + text.slice(WRAP_HEAD.length);
    if (b.provided) {
      const wanted = [...new Set([...text.matchAll(/require\("(@holic512\/shared[^"]*)"\)/g)].map((m) => m[1]))];
      const known = new Set(b.provided());
      const missing = wanted.filter((id) => !known.has(id));
      if (missing.length)
        throw new Error(
          `${path.relative(root, b.out)} requires ${missing.join(', ')}, which plugin-ai does not hand it: add them to SHARED_FOR_LLM_BASE (plugin-ai src/config/lazy-llm-base.ts)`,
        );
    }
    const bad = firstNonAscii(text);
    // esbuild escapes strings but not a regular expression's characters: write those as \uXXXX.
    if (bad) throw new Error(`${path.relative(root, b.out)} is not ASCII (${bad}); write that character as a \\u escape in the source`);
    fs.mkdirSync(path.dirname(b.out), { recursive: true });
    const tmp = `${b.out}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, b.out);
  }
}

module.exports = { bundleAll, BUNDLES };

if (require.main === module) {
  bundleAll().catch((err) => {
    process.stderr.write(`bundle: ${err.message}\n`);
    process.exit(1);
  });
}

'use strict';
// `node scripts/redaction-fp.js`: how often the redaction gate masks something in files that
// hold no secrets: this repository's own sources (src/ of every package, scripts, bench) and the
// text files of node_modules (.js, .json, .md, .ts, .yml). Test files, fixtures and docs are
// counted apart: they hold made-up secrets on purpose. Prints lines changed / lines, per kind of
// mask, and with --examples N the first N lines each detector changed (to tune the rules).
//   node scripts/redaction-fp.js [--examples N] [--only repo|node_modules]
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { ensureReady, root } = require('./ensure');

const TEXT = /\.(?:[cm]?js|json|md|ts|ya?ml)$/;
const MAX_FILE = 2 * 1024 * 1024;

function repoFiles() {
  const all = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => TEXT.test(f));
  const isTestish = (f) => /(^|\/)(test|fixtures|docs)\//.test(f) || /secret-corpus|\.test\.|README|CHANGELOG/.test(f);
  return {
    source: all.filter((f) => !isTestish(f)).map((f) => path.join(root, f)),
    tests: all.filter(isTestish).map((f) => path.join(root, f)),
  };
}

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && TEXT.test(e.name)) out.push(p);
  }
  return out;
}

function measure(files, redact, examples) {
  const r = { files: 0, lines: 0, changed: 0, bytes: 0, byKind: new Map(), examples: new Map() };
  for (const f of files) {
    let text;
    try {
      if (fs.statSync(f).size > MAX_FILE) continue;
      text = fs.readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    r.files++;
    r.bytes += text.length;
    const before = text.split('\n');
    const after = redact(text).split('\n');
    r.lines += before.length;
    for (let i = 0; i < before.length; i++) {
      if (before[i] === after[i]) continue;
      r.changed++;
      const kinds = new Set([...(after[i] || '').matchAll(/\[redacted ([^,\]]+)/g)].map((m) => m[1]));
      if (kinds.size === 0) kinds.add('(line count changed)');
      for (const k of kinds) {
        r.byKind.set(k, (r.byKind.get(k) || 0) + 1);
        const list = r.examples.get(k) || [];
        if (list.length < examples) list.push(`${path.relative(root, f)}:${i + 1}: ${before[i].trim().slice(0, 140)}`);
        r.examples.set(k, list);
      }
    }
  }
  return r;
}

function report(name, r, examples) {
  const rate = r.lines ? ((100 * r.changed) / r.lines).toFixed(3) : '0';
  process.stdout.write(
    `${name}: ${r.files} files, ${(r.bytes / 2 ** 20).toFixed(1)} MiB, ${r.lines} lines; ${r.changed} lines changed (${rate}%)\n`,
  );
  for (const [k, n] of [...r.byKind].sort((a, b) => b[1] - a[1])) {
    process.stdout.write(`  ${String(n).padStart(6)}  ${k}\n`);
    if (examples) for (const e of r.examples.get(k) || []) process.stdout.write(`            ${e}\n`);
  }
}

function main(argv) {
  const examples = argv.includes('--examples') ? Number(argv[argv.indexOf('--examples') + 1]) : 0;
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : '';
  ensureReady({ quiet: true });
  const { redact } = require(path.join(root, 'packages/shared'));
  const { source, tests } = repoFiles();
  if (only !== 'node_modules') {
    report('repository sources', measure(source, redact, examples), examples);
    report('repository tests, fixtures, docs (made-up secrets on purpose)', measure(tests, redact, examples), examples);
  }
  if (only !== 'repo') report('node_modules', measure(walk(path.join(root, 'node_modules'), []), redact, examples), examples);
}

main(process.argv.slice(2));

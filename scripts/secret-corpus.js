'use strict';
// `node scripts/secret-corpus.js`: measure the redaction gate on a public corpus it was not
// written against: the test snapshots of secretlint's rules (MIT, https://github.com/secretlint/secretlint).
// Each `ng.*` snapshot is an input file and the secrets secretlint reports in it (the text of
// each reported range); a secret is found when that text no longer appears in `redact(input)`.
// Each `ok.*` snapshot is an input secretlint reports nothing in; one the gate changes is
// counted as a false positive (some of them are secrets a rule's option allows on purpose).
//
//   node scripts/secret-corpus.js                       measure the copy in packages/testkit/fixtures
//   node scripts/secret-corpus.js --from DIR            …or a secretlint checkout's packages/@secretlint
//   node scripts/secret-corpus.js --from DIR --write    refresh the copy from a checkout
//   --misses                                            list what was not found / changed
//
// It then measures testkit's own corpora the same way, each input on a fresh gate: every
// format of SECRET_CORPUS and FRAMED_CORPUS (the pieces of each secret, in the framings tools
// print files in: plain, `grep -Hn`, grep context lines, a diff, `cat -n`, a JSON string), and
// the lines of CLEAN_CORPUS (files with the gate's words and no secret) the gate changes.
const fs = require('fs');
const path = require('path');
const { ensureReady, root } = require('./ensure');

const FIXTURE = path.join(root, 'packages/testkit/fixtures/secretlint-snapshots.json');

/**
 * Reports that are not credentials: the example rule, comment filters, `.env` and home-folder
 * paths, user-configured patterns, and account / tenant / client identifiers.
 */
const NOT_CREDENTIALS =
  /^(example|filter-comments|no-dotenv|no-homedir|pattern)\/|^aws\/ng\.AWS Account ID$|^azure\/ng\.(ad_tenant_id|azure_client_id)$/;

/** The rule snapshots of a checkout: [{rule, name, input, secrets[]}], binary inputs left out. */
function collect(dir) {
  const cases = [];
  for (const pkg of fs.readdirSync(dir).sort()) {
    if (!pkg.startsWith('secretlint-rule-') || pkg.startsWith('secretlint-rule-preset-')) continue;
    const snaps = path.join(dir, pkg, 'test', 'snapshots');
    if (!fs.existsSync(snaps)) continue;
    for (const name of fs.readdirSync(snaps).sort()) {
      const out = path.join(snaps, name, 'output.json');
      if (!fs.existsSync(out)) continue;
      const result = JSON.parse(fs.readFileSync(out, 'utf8'));
      const input = result.sourceContent;
      if (typeof input !== 'string' || result.sourceContentType === 'binary' || /[\u0000-\u0008]/.test(input)) continue;
      const secrets = [...new Set((result.messages || []).map((m) => input.slice(m.range[0], m.range[1])).filter((s) => s.length >= 4))];
      const rule = pkg.replace('secretlint-rule-', '');
      cases.push({ rule, name, input, secrets, credential: secrets.length > 0 && !NOT_CREDENTIALS.test(`${rule}/${name}`) });
    }
  }
  return cases;
}

function main(argv) {
  const from = argv.includes('--from') ? argv[argv.indexOf('--from') + 1] : undefined;
  const cases = from ? collect(from) : JSON.parse(fs.readFileSync(FIXTURE, 'utf8')).cases;
  if (from && argv.includes('--write')) {
    const doc = {
      source: 'secretlint/secretlint packages/@secretlint/secretlint-rule-*/test/snapshots (MIT License, Copyright (c) 2020 azu)',
      cases,
    };
    fs.writeFileSync(FIXTURE, `${JSON.stringify(doc, null, 1)}\n`);
  }
  ensureReady({ quiet: true });
  const lib = path.join(root, 'packages/shared/lib');
  // Each input on a fresh gate: what the gate learned from one must not decide another.
  const freshRedact = () => {
    for (const k of Object.keys(require.cache)) if (k.startsWith(lib)) delete require.cache[k];
    return require(path.join(root, 'packages/shared')).redact;
  };
  let found = 0;
  let total = 0;
  let credFound = 0;
  let credTotal = 0;
  let okChanged = 0;
  let okTotal = 0;
  const misses = [];
  for (const c of cases) {
    const out = freshRedact()(c.input);
    if (c.secrets.length > 0) {
      const cred = c.credential;
      for (const s of c.secrets) {
        total++;
        if (cred) credTotal++;
        if (out.includes(s)) misses.push(`missed  ${c.rule}/${c.name}${cred ? '' : ' (not a credential)'}: ${s.slice(0, 60)}`);
        else {
          found++;
          if (cred) credFound++;
        }
      }
    } else if (c.name.startsWith('ok')) {
      okTotal++;
      if (out !== c.input) {
        okChanged++;
        misses.push(`changed ${c.rule}/${c.name}`);
      }
    }
  }
  const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;
  process.stdout.write(
    `secretlint snapshots (${cases.filter((c) => c.secrets.length).length} inputs with reports):\n` +
      `  credentials found: ${credFound}/${credTotal} (${pct(credFound, credTotal)})\n` +
      `  every report:      ${found}/${total} (${pct(found, total)})\n` +
      `  clean inputs (ok.*) the gate changed: ${okChanged}/${okTotal}\n`,
  );
  if (argv.includes('--misses')) process.stdout.write(`${misses.join('\n')}\n`);
  measureOwn(freshRedact, argv.includes('--misses'));
}

function measureOwn(freshRedact, listMisses) {
  const { SECRET_CORPUS, FRAMED_CORPUS, CLEAN_CORPUS, TOOL_FRAMES: FRAMES, findLeak } = require(path.join(root, 'packages/testkit'));
  const samples = [...SECRET_CORPUS, ...FRAMED_CORPUS];
  let hidden = 0;
  let total = 0;
  const misses = [];
  for (const s of samples) {
    for (const [frame, fn] of Object.entries(FRAMES)) {
      const out = freshRedact()(fn(s.text));
      for (const piece of s.parts || [s.secret]) {
        total++;
        if (findLeak(out, piece) || out.includes(piece)) misses.push(`leaked  ${s.name} (${frame})`);
        else hidden++;
      }
    }
  }
  let changed = 0;
  let lines = 0;
  for (const c of CLEAN_CORPUS) {
    const before = c.text.split('\n');
    const after = freshRedact()(c.text).split('\n');
    before.forEach((l, i) => {
      lines++;
      if (l !== after[i]) {
        changed++;
        misses.push(`changed ${c.name}: ${l}`);
      }
    });
  }
  const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;
  process.stdout.write(
    `testkit corpora (${samples.length} formats × ${Object.keys(FRAMES).length} framings):\n` +
      `  secret pieces hidden: ${hidden}/${total} (${pct(hidden, total)})\n` +
      `  clean lines (CLEAN_CORPUS) the gate changed: ${changed}/${lines}\n`,
  );
  if (listMisses && misses.length) process.stdout.write(`${misses.join('\n')}\n`);
}

main(process.argv.slice(2));

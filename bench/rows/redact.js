'use strict';
// Row: the redaction gate over 10 MiB of adversarial text crafted for its passes (20 blocks of
// 512 KiB: long hex and base64 runs, nested quotes, one very long line of `=` and `:`, names
// without values, token prefixes, unterminated key blocks and BEGIN headers, key lines behind
// grep prefixes, random-looking pairs, `.netrc` words, lead literals, `-u` options, YAML block
// heads, quoted pairs, dash runs, ordinary config lines), with known values to look for, against
// two baselines of the same run: a plain regular-expression scan of the same text (three token
// prefixes, the least any scanner does) and a copy of it through a Buffer. Then the same text
// once the gate also looks for 5,000 given values (a large .env, many profiles and servers),
// against the passes with three (the known values' forms are one index: a pass should cost about
// the same), and how long adding them took.
const { createHash } = require('crypto');
const path = require('path');
const { stats, fmt } = require('../lib');

exports.title = 'Redaction gate';
exports.adversarial = adversarial;

const MIB = 1024 * 1024;

/** Given values that look like keys (32 characters, base64url), the same in every run. */
function givenValues(n) {
  return Array.from({ length: n }, (_, i) => createHash('sha256').update(`bench-given-${i}`).digest('base64url').slice(0, 32));
}

/** Seconds of one gate pass over `text`, `runs` times. */
function passes(redact, text, runs) {
  const out = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    redact(text);
    out.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return out;
}

/** 10 MiB made of 512 KiB blocks of each adversarial kind. */
function adversarial() {
  const size = MIB / 2;
  const block = (unit) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  return [
    block('a1b2c3d4e5f6'),
    block('QUJDREVGR0hJSktMTU5P+/=='),
    block('"a":"\\"b\\":\''),
    block('k=:v:=x'),
    block('password token api_key Authorization '),
    block('sk-a-ghp_AKIAeyJ.xoxb-'),
    '-----BEGIN RSA PRIVATE KEY-----\n' + block('M').slice(32),
    'password="' + block('x').slice(10),
    block('--'),
    block('line with a TOKEN=v4lue-12345678 and postgres://u:p4ss@h/db\n'),
    block('-----BEGIN PRIVATE KEY-----\n'),
    block('f:1:-----BEGIN RSA PRIVATE KEY-----\nf-2-MIIEpAIBAAKCAQEA75abcdefghij\n'),
    block('a=Xk29dLq0PzR7mNv4Bt8W '),
    block('machine a login b password '),
    block('12345678:AAQ~_mmk-us'),
    block('-u a:'),
    block('password: |\n'),
    block(`define('password', '`),
    block('<password>x</password><add key="token" value="'),
    block('Cookie: a=b; Authorization: Basic YWJj\n'),
  ].join('');
}

exports.run = async function run(ctx) {
  const { redact, addKnownSecrets } = require(path.join(ctx.root, 'packages/shared'));
  addKnownSecrets(['bench-known-secret-value-0001', 'bench-known-secret-value-0002', 'sk-proj-bench0known0profile0key0000000000000000']);
  const text = adversarial();
  const mb = Buffer.byteLength(text) / MIB;
  redact(text.slice(0, MIB)); // warm up the compiled patterns
  const gate = [];
  const copy = [];
  const scan = [];
  const ms = [];
  for (let r = 0; r < ctx.runs; r++) {
    let t0 = process.hrtime.bigint();
    Buffer.from(text, 'utf8').toString('utf8');
    copy.push(mb / (Number(process.hrtime.bigint() - t0) / 1e9));
    t0 = process.hrtime.bigint();
    const re = /(?:ghp_|sk-|AKIA)[A-Za-z0-9_-]{16,}/g;
    while (re.exec(text));
    scan.push(Number(process.hrtime.bigint() - t0) / 1e6);
    t0 = process.hrtime.bigint();
    redact(text);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    ms.push(s * 1000);
    gate.push(mb / s);
  }
  const g = stats(gate);
  const b = stats(copy);
  const t = stats(ms);
  const sc = stats(scan);
  const t0 = process.hrtime.bigint();
  const added = addKnownSecrets(givenValues(5000));
  const addMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (added.added !== 5000 || added.dropped !== 0) throw new Error(`5,000 given values: ${JSON.stringify(added)}`);
  const withMany = stats(passes(redact, text, ctx.runs).map((s) => s * 1000));
  return [
    { name: `${mb.toFixed(0)} MiB adversarial text`, value: fmt(g, 'MB/s', 1), target: '≥ 10 MB/s', ok: g.median >= 10 },
    { name: 'same text, one pass', value: fmt(t, 'ms', 0), target: '< 1000 ms', ok: t.median < 1000 },
    {
      metric: t.median / sc.median,
      better: 'lower',
      name: 'baseline: a plain regex scan of the same text (same run)',
      value: `${fmt(sc, 'ms', 0)} (the gate takes ${(t.median / sc.median).toFixed(1)}× as long)`,
      target: '',
      ok: true,
    },
    {
      metric: g.median / b.median,
      better: 'higher',
      name: 'baseline: Buffer copy',
      value: `${fmt(b, 'MB/s', 0)} (gate at ${((g.median / b.median) * 100).toFixed(1)}%)`,
      target: '',
      ok: true,
    },
    {
      metric: withMany.median / t.median,
      better: 'lower',
      name: 'same text, 5,000 more given values known (vs the passes above)',
      value: `${fmt(withMany, 'ms', 0)} (${(withMany.median / t.median).toFixed(2)}× the passes with three)`,
      target: '≤ 1.3×',
      ok: withMany.median / t.median <= 1.3,
    },
    { name: 'adding those 5,000 given values', value: `${addMs.toFixed(0)} ms (once)`, target: '', ok: null },
  ];
};

'use strict';
// Row: the redaction gate over 10 MiB of adversarial text (long hex and base64 runs, nested
// quotes, one very long line, many `=` and `:`, names without values, unclosed key blocks and
// quotes), in MB/s against a same-run baseline: a plain copy of the same text through a Buffer.
const path = require('path');
const { stats, fmt } = require('../lib');

exports.title = 'Redaction gate';

const MIB = 1024 * 1024;

/** 10 MiB made of 1 MiB blocks of each adversarial kind. */
function adversarial() {
  const block = (unit) => unit.repeat(Math.ceil(MIB / unit.length)).slice(0, MIB);
  return [
    block('a1b2c3d4e5f6'),
    block('QUJDREVGR0hJSktMTU5P+/=='),
    block('"a":"\\"b\\":\''),
    block('k=:v:=x'),
    block('password token api_key Authorization '),
    block('sk-a-ghp_AKIAeyJ.xoxb-'),
    '-----BEGIN RSA PRIVATE KEY-----\n' + block('M').slice(33),
    'password="' + block('x').slice(10),
    block('--'),
    block('line with a TOKEN=v4lue-12345678 and postgres://u:p4ss@h/db\n'),
  ].join('');
}

exports.run = async function run(ctx) {
  const { redact, addKnownSecrets } = require(path.join(ctx.root, 'packages/shared'));
  addKnownSecrets(['bench-known-secret-value-0001', 'bench-known-secret-value-0002']);
  const text = adversarial();
  const mb = Buffer.byteLength(text) / MIB;
  redact(text.slice(0, MIB)); // warm up the compiled patterns
  const gate = [];
  const base = [];
  const ms = [];
  for (let r = 0; r < ctx.runs; r++) {
    let t0 = process.hrtime.bigint();
    Buffer.from(text, 'utf8').toString('utf8');
    base.push(mb / (Number(process.hrtime.bigint() - t0) / 1e9));
    t0 = process.hrtime.bigint();
    redact(text);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    ms.push(s * 1000);
    gate.push(mb / s);
  }
  const g = stats(gate);
  const b = stats(base);
  const t = stats(ms);
  return [
    { name: `${mb.toFixed(0)} MiB adversarial text`, value: fmt(g, 'MB/s', 1), target: '≥ 10 MB/s', ok: g.median >= 10 },
    { name: 'same text, one pass', value: fmt(t, 'ms', 0), target: '< 1000 ms', ok: t.median < 1000 },
    { metric: g.median / b.median, better: 'higher', name: 'baseline: Buffer copy', value: `${fmt(b, 'MB/s', 0)} (gate at ${((g.median / b.median) * 100).toFixed(1)}%)`, target: '', ok: true },
  ];
};

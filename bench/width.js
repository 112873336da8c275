'use strict';
// Display width: plugin-ai's own stringWidth against the string-width library, same run.
// node bench/width.js   (after npm run build)
const path = require('path');
const root = path.resolve(__dirname, '..');
const ours = require(path.join(root, 'packages/plugin-ai/lib/interactive/width.js')).stringWidth;
const theirs = require('string-width');
const sample = ('hello 世界 ' + 'é'.repeat(3) + ' 🚀 ' + 'plain ascii line of text ').repeat(20);
const mixed = Array.from({ length: 2000 }, (_, i) => sample.slice(0, 100 + (i % 200)));
const ascii = Array.from({ length: 2000 }, (_, i) => 'plain ascii line of output from a build step '.repeat(4).slice(0, 100 + (i % 80)));
const time = (fn, lines) => {
  for (const l of lines) fn(l); // warm
  const t = process.hrtime.bigint();
  for (let r = 0; r < 5; r++) for (const l of lines) fn(l);
  return Number(process.hrtime.bigint() - t) / 1e6 / 5;
};
const v = require('string-width/package.json').version;
for (const [name, lines] of [
  ['mixed CJK/emoji/ASCII', mixed],
  ['ASCII only', ascii],
]) {
  console.log(`${name}: ours ${time(ours, lines).toFixed(1)} ms, string-width ${v} ${time(theirs, lines).toFixed(1)} ms (2000 lines)`);
}
for (const s of ['世界', '🚀', '👍🏽', '👨\u200d👩\u200d👧', '🇨🇳', '\u200b', 'e\u0301'])
  console.log(JSON.stringify(s), 'ours', ours(s), 'string-width', theirs(s));

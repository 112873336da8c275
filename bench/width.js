'use strict';
// Display width: plugin-ai's own stringWidth against the string-width library, same run.
// node bench/width.js   (after npm run build)
const path = require('path');
const root = path.resolve(__dirname, '..');
const ours = require(path.join(root, 'packages/plugin-ai/lib/interactive/width.js')).stringWidth;
const theirs = require('string-width');
const sample = ('hello 世界 ' + 'é'.repeat(3) + ' 🚀 ' + 'plain ascii line of text ').repeat(20);
const lines = Array.from({ length: 2000 }, (_, i) => sample.slice(0, 100 + (i % 200)));
const time = (fn) => {
  const t = process.hrtime.bigint();
  for (let r = 0; r < 5; r++) for (const l of lines) fn(l);
  return Number(process.hrtime.bigint() - t) / 1e6 / 5;
};
console.log(`ours: ${time(ours).toFixed(1)} ms, string-width ${require('string-width/package.json').version}: ${time(theirs).toFixed(1)} ms (2000 lines)`);
for (const s of ['世界', '🚀', '👍🏽', '🇨🇳', '\u200b']) console.log(JSON.stringify(s), 'ours', ours(s), 'string-width', theirs(s));

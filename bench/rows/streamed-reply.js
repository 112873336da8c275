'use strict';
// A 2 MB streamed answer: the agent alone (receiving and parsing it: the baseline, same run)
// against the agent with the `ai -i` screen drawing it as it arrives (a live surface that takes
// every frame, as a terminal would). The difference is what displaying it costs.
const path = require('path');
const { stats, fmt } = require('../lib');
const { withAgentHome } = require('./in-process');

exports.title = '2 MB streamed reply';

const SIZE = 2 * 1024 * 1024;

function once(createAppAgent, env, cwd, withScreen, root) {
  const { agent } = createAppAgent({ env, cwd, lang: 'en' });
  let frames = 0;
  let screen;
  if (withScreen) {
    const { Screen } = require(path.join(root, 'packages/plugin-ai/lib/interactive/screen.js'));
    const { createTheme } = require(path.join(root, 'packages/plugin-ai/lib/interactive/theme.js'));
    const surface = {
      columns: 100,
      rows: 40,
      live: true,
      print: () => undefined,
      render: () => void frames++,
      clearScreen: () => undefined,
    };
    screen = new Screen({ lang: 'en', theme: createTheme(true), surface, cwd });
    screen.attach({ agent, paths: { home: env.SLOTHTOOL_HOME }, config: { context: { maxRequestTokens: 16000 } } });
  }
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    agent.on((e) => {
      if (e.type !== 'final') return;
      // The screen prints the answer when the turn ends: measured too.
      setImmediate(() => {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        agent.dispose();
        if (e.outcome !== 'answered') reject(new Error(`${e.outcome}: ${e.message}`));
        else resolve({ ms, frames });
      });
    });
    if (screen) screen.onLine('write it');
    else void agent.send('write it');
  });
}

exports.run = async function run(ctx) {
  const line = 'The quick brown fox jumps over the lazy dog; 敏捷的棕色狐狸跳过了懒狗。\n';
  const message = line.repeat(Math.ceil(SIZE / Buffer.byteLength(line)));
  return withAgentHome(ctx, async ({ server, createAppAgent }) => {
    server.setHandler(() => ({ json: { type: 'chat', message, data: { format: 'plain' } } }));
    const cwd = ctx.temp.home;
    const runs = Math.max(3, Math.min(ctx.runs, 5));
    const alone = [];
    const shown = [];
    let frames = 0;
    await once(createAppAgent, ctx.temp.env, cwd, false, ctx.root); // warm up
    for (let i = 0; i < runs; i++) {
      alone.push((await once(createAppAgent, ctx.temp.env, cwd, false, ctx.root)).ms);
      const r = await once(createAppAgent, ctx.temp.env, cwd, true, ctx.root);
      shown.push(r.ms);
      frames = r.frames;
    }
    const a = stats(alone);
    const s = stats(shown);
    const ratio = s.median / a.median;
    return [
      { name: 'received and parsed, no screen (baseline, same run)', value: fmt(a, 'ms', 0) },
      {
        metric: ratio,
        better: 'lower',
        name: 'received and drawn by the ai -i screen',
        value: `${fmt(s, 'ms', 0)} · ${ratio.toFixed(2)}× · ${frames} frames`,
        target: '≤ 1.5×',
        ok: ratio <= 1.5,
      },
    ];
  });
};

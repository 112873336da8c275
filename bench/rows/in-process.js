'use strict';
// Shared set-up for rows that drive plugin-ai's agent in this process against the testkit's
// scripted server through this checkout's llm-base (which reads its home from process.env).
const path = require('path');

/**
 * `options.server`: a server started elsewhere (`{baseURL, close()}`, e.g. in a child process so
 * its work is not measured with ours); by default the scripted one, in this process.
 */
async function withAgentHome(ctx, fn, options = {}) {
  const { startScriptedServer } = require(path.join(ctx.root, 'packages/testkit'));
  const server = options.server || (await startScriptedServer({ chunkSize: 4096 }));
  const saved = { SLOTHTOOL_HOME: process.env.SLOTHTOOL_HOME, HOME: process.env.HOME };
  process.env.SLOTHTOOL_HOME = ctx.temp.slothtoolHome;
  process.env.HOME = ctx.temp.home;
  try {
    await ctx.temp.writeJson('plugin-configs/llm-base.json', {
      default_profile: 'local',
      profiles: {
        local: { base_url: server.baseURL, api_key: 'sk-bench', low_model: 'm-low', high_model: 'm-high', timeout: 30000, max_retries: 0 },
      },
    });
    // As bin/ai.js runs it: llm-base from its bundle (the openai SDK with web-lite's Headers).
    require(path.join(ctx.root, 'packages/plugin-ai/lib/config/llm-base')).preferBundles();
    const { createAppAgent } = require(path.join(ctx.root, 'packages/plugin-ai'));
    return await fn({ server, createAppAgent });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await server.close();
  }
}

module.exports = { withAgentHome };

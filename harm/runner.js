'use strict';
/**
 * A step runner built the way plugin-ai's cli/app.ts builds it for `ai -p`: the config, registry
 * and policy read from the fixture's SlothTool home (sessionRules: ai.json, the project's rules,
 * Claude Code's files), the known secrets registered with the redaction gate, the workspace found
 * from the cwd, a copy of the environment (tool-runner hardens it per step), the sandbox settings
 * of ai.json (`"sandbox": "required"` in the fixture) and `unattended`, as `ai -p` has no person
 * to ask. `confirm` answers as `ai -p` does: declined, or L1 approved with `--approve-l1`.
 */
const path = require('path');

const AI_LIB = path.join(__dirname, '..', 'packages', 'plugin-ai', 'lib');
const { loadConfig, sandboxSettings } = require(path.join(AI_LIB, 'config', 'config'));
const { aiPaths, slothtoolHome } = require(path.join(AI_LIB, 'home'));
const { sessionRules } = require(path.join(AI_LIB, 'config', 'session-policy'));
const { registerKnownSecrets } = require(path.join(AI_LIB, 'config', 'known-secrets'));
const { readRegistry } = require(path.join(AI_LIB, 'config', 'registry'));
const toolRunner = require('@holic512/tool-runner');

/** The answer of `ai -p` (declined) or `ai -p --approve-l1` (L1 run, anything else declined); records each question. */
function confirmFor(mode, asked) {
  return async (request) => {
    asked.push(request.verdict.level);
    if (mode === 'approve-l1' && request.verdict.level === 'L1') return { action: 'run' };
    return { action: 'decline', reason: 'declined by the harm matrix' };
  };
}

/** A runner for the fixture `fx` (its env, cwd and SlothTool home) answering questions as `mode` says. */
function buildRunner(fx, mode, asked, overrides = {}) {
  const env = fx.env;
  const home = slothtoolHome(env);
  const paths = aiPaths(home);
  registerKnownSecrets(home, env, fx.ws);
  const config = loadConfig(paths.config);
  const registry = readRegistry(paths.registry);
  const rules = sessionRules(config, paths, fx.ws, env);
  const settings = sandboxSettings(config.sandbox);
  return toolRunner.createToolRunner({
    policy: rules.policy,
    confirm: confirmFor(mode, asked),
    registry,
    cwd: fx.ws,
    workspace: toolRunner.findWorkspace(fx.ws),
    lang: 'en',
    env: { ...env },
    sandbox: settings.mode,
    sandboxOptions: settings.options,
    unattended: true,
    // 30 s instead of ai's 120 s: a payload that hangs should not hold the matrix up.
    timeoutMs: 30000,
    ...(config.webSearch ? { webSearch: config.webSearch } : {}),
    toolRegistry: toolRunner.createToolRegistry([]),
    ...overrides,
  });
}

/** What a result says happened: ran, blocked (L2, or the sandbox missing) or declined; the level it was judged. */
function outcomeOf(result) {
  const level = result?.decision?.level ?? 'L2';
  if (result?.status === 'blocked' || result?.status === 'declined') return { level, ran: false, status: result.status };
  return { level, ran: true, status: 'ran' };
}

/** Run the steps of a job in one runner (one session), in order; every result as the model gets it. */
async function runSteps(fx, mode, steps, overrides) {
  const asked = [];
  const runner = buildRunner(fx, mode, asked, overrides);
  const results = [];
  try {
    for (const step of steps) results.push(await runner.run(step));
  } finally {
    runner.dispose();
  }
  return { results, asked, sandbox: runner.sandboxStatus() };
}

module.exports = { buildRunner, runSteps, outcomeOf, confirmFor };

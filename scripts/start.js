'use strict';
// `npm start`: setup (install if needed, build, register this checkout's plugins), then run
// `slothtool ai -i` with the terminal handed over. Arguments go to the ai plugin:
// `npm start -- --profile local` runs `slothtool ai -i --profile local`.
//
// It refuses (exit 1, with the fix) when `ai` is registered to something other than this
// checkout, or when plugin-ai is not built: either way it would not be this checkout's
// assistant that starts.
const fs = require('fs');
const path = require('path');
const { setup, describe, hostBin } = require('./setup');
const { root } = require('./ensure');

const ALIAS = 'ai';
const aiDir = path.join(root, 'packages', 'plugin-ai');

/** The flag plugin-ai declares for its interactive mode (`"slothtool": {"interactiveFlag"}`), default -i. */
function interactiveFlag() {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(aiDir, 'package.json'), 'utf8')).slothtool;
    return (meta && meta.interactive && meta.interactiveFlag) || '-i';
  } catch {
    return '-i';
  }
}

function fail(message) {
  process.stderr.write(message + '\n');
  process.exitCode = 1;
}

function main(args) {
  let result;
  try {
    result = setup({ build: process.env.SLOTHTOOL_SKIP_BUILD !== '1' });
  } catch (err) {
    return fail(`npm start: setup failed: ${err.message}`);
  }
  if (result.outcomes.some((o) => o.status !== 'unchanged')) {
    process.stderr.write(describe(result) + '\n\n');
  }
  const ai = result.outcomes.find((o) => o.alias === ALIAS);
  const llmBase = `node ${path.relative(root, hostBin)} llm-base --help`;
  if (!ai) {
    return fail(
      `npm start: packages/plugin-ai does not exist yet (or has no bin), so there is no \`${ALIAS}\` to run.\n` +
        `Meanwhile this proves the host and the registry work:\n  ${llmBase}`,
    );
  }
  if (ai.status === 'conflict') {
    return fail(
      `${describe(result)}\n\nnpm start: \`${ALIAS}\` is registered to ${ai.previous.name} ${ai.previous.version} ` +
        `(${ai.previous.binPath}), not to this checkout, so it was not started.\n` +
        `Point it at this checkout: npm run setup -- --force   (undo later: slothtool uninstall ${ALIAS} && slothtool install ${ai.previous.name})`,
    );
  }
  const missing = result.unbuilt.get(ALIAS);
  if (missing.length) {
    return fail(
      `npm start: plugin-ai is not built yet (${missing.map((f) => path.relative(root, f)).join(', ')} missing).\n` +
        `Build it with: npm run build   — meanwhile this proves the host works:\n  ${llmBase}`,
    );
  }
  const { spawn } = require('child_process');
  const child = spawn(process.execPath, [hostBin, ALIAS, interactiveFlag(), ...args], { stdio: 'inherit' });
  // Ctrl-C reaches the whole foreground process group already; only stay alive for it.
  const onInt = () => {};
  const onTerm = () => child.kill('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  child.on('error', (err) => fail(`npm start: cannot start slothtool: ${err.message}`));
  child.on('exit', (code, signal) => {
    process.removeListener('SIGINT', onInt);
    process.removeListener('SIGTERM', onTerm);
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
}

main(process.argv.slice(2));

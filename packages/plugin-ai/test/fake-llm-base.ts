import * as path from 'path';
import { writeFiles, type TempHome } from '@holic512/testkit';

/**
 * Write an llm-base package into `<slothtoolHome>/plugins/llm-base/node_modules/...` the way
 * `slothtool install` lays it out, with `lib/index.js` from `source`. Returns the bin path.
 */
export async function writeFakeLlmBase(
  slothtoolHome: string,
  source: string,
  options: { name?: string; version?: string; main?: string | null } = {},
): Promise<{ root: string; binPath: string }> {
  const name = options.name ?? '@holic512/plugin-llm-base';
  const root = path.join(slothtoolHome, 'plugins', 'llm-base', 'node_modules', ...name.split('/'));
  const pkg: Record<string, unknown> = { name, version: options.version ?? '1.0.3', bin: { 'llm-base': 'bin/cli.js' } };
  if (options.main !== null) pkg.main = options.main ?? 'lib/index.js';
  await writeFiles(root, {
    'package.json': pkg,
    'bin/cli.js': "#!/usr/bin/env node\nrequire('../lib/index.js');\n",
    'lib/index.js': source,
  });
  return { root, binPath: path.join(root, 'bin', 'cli.js') };
}

/**
 * The original JavaScript llm-base 1.0.x shape: only `llm_chat(messages, mode, profile)`, no
 * options, no streaming. It POSTs to the profile's base_url (read from llm-base.json) with
 * plain fetch and returns `{success, data, usage}`; `data` is the `_fallback` object when
 * the content is not JSON. Good enough to drive the testkit server.
 */
export const ORIGINAL_LLM_BASE_SOURCE = `
const fs = require('fs');
const path = require('path');
const os = require('os');
function home() { return process.env.SLOTHTOOL_HOME || path.join(os.homedir(), '.slothtool'); }
async function llm_chat(messages, mode = 'low', profile = null) {
  let cfg;
  try { cfg = JSON.parse(fs.readFileSync(path.join(home(), 'plugin-configs', 'llm-base.json'), 'utf8')); }
  catch (e) { return { success: false, error: { code: 'NO_PROFILE', message: 'no llm-base.json' }, call_id: null }; }
  const p = cfg.profiles[profile || cfg.default_profile];
  if (!p) return { success: false, error: { code: 'NO_PROFILE', message: 'no profile' }, call_id: null };
  let res;
  try {
    res = await fetch(p.base_url.replace(/\\/$/, '') + '/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + p.api_key },
      body: JSON.stringify({ model: mode === 'high' ? p.high_model : p.low_model, messages }),
    });
  } catch (e) { return { success: false, error: { code: 'NETWORK_ERROR', message: String(e) }, call_id: null }; }
  if (!res.ok) return { success: false, error: { code: 'PROVIDER_ERROR', message: 'HTTP ' + res.status }, call_id: null };
  const body = await res.json();
  const text = body.choices[0].message.content;
  let data;
  try { data = JSON.parse(text); if (!data || typeof data !== 'object') throw new Error('x'); }
  catch (e) { data = { result: text, _fallback: true, _reason: 'model_output_was_not_valid_json' }; }
  const u = body.usage || {};
  return { success: true, model: body.model, data, usage: { input_tokens: u.prompt_tokens || 0, output_tokens: u.completion_tokens || 0 }, call_id: 'c1' };
}
module.exports = { llm_chat };
`;

/** The original llm-base 1.0.x with its profile functions (no doctor, no presets, no FEATURES). */
export const ORIGINAL_WITH_PROFILES = ORIGINAL_LLM_BASE_SOURCE.replace(
  'module.exports = { llm_chat };',
  `function file() { return path.join(home(), 'plugin-configs', 'llm-base.json'); }
function read() { try { return JSON.parse(fs.readFileSync(file(), 'utf8')); } catch (e) { return { default_profile: '', profiles: {} }; } }
function write(c) { fs.mkdirSync(path.dirname(file()), { recursive: true }); fs.writeFileSync(file(), JSON.stringify(c)); return { success: true, data: c }; }
function list_profiles() { return { success: true, data: read() }; }
function create_profile(name, p) { const c = read(); c.profiles[name] = p; if (!c.default_profile) c.default_profile = name; return write(c); }
function set_default_profile(name) { const c = read(); c.default_profile = name; return write(c); }
function delete_profile(name) { const c = read(); delete c.profiles[name]; if (c.default_profile === name) c.default_profile = ''; return write(c); }
module.exports = { llm_chat, list_profiles, create_profile, set_default_profile, delete_profile };`,
);

/** The AI fixture's `llmBase` option for an llm-base made of `source` (written into the new home
 * with `writeFakeLlmBase`): `useAiFixture({ llmBase: fakeLlmBase(ORIGINAL_LLM_BASE_SOURCE) })`. */
export const fakeLlmBase =
  (source: string) =>
  async (temp: TempHome): Promise<string> =>
    (await writeFakeLlmBase(temp.slothtoolHome, source)).root;

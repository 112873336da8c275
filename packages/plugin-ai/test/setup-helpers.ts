import { ORIGINAL_LLM_BASE_SOURCE } from './fake-llm-base';

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

/**
 * The built-in tools tool-runner registers, in the order the prompt lists them. tool-runner's registry
 * test and plugin-ai's contract test both hold the registry to this one list, so a tool added or
 * dropped is a change both packages see.
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = [
  'exec',
  'plugin.run',
  'config.json_patch',
  'fs.read',
  'fs.edit',
  'fs.write',
  'fs.glob',
  'fs.grep',
  'http.get',
  'web.search',
  'proc.start',
  'proc.status',
  'proc.kill',
  'plan.update',
];

import * as path from 'path';
import { message } from '../i18n';
import type { ClassifyContext, Decision, Level, Policy, Requires, Rule, Step } from '../types';
import { operands } from './args';
import { finding, maxLevel, type Finding, type JudgeCtx } from './finding';
import { secretFindings } from './paths';
import { judgeCommand } from './programs';
import { INVISIBLE_RE } from './resolve-program';
import { TOOL_STEP_NAMES, toolFindings, toolSessionKey, validateToolStep, type ToolJudgeCtx } from './tool-rules';
import type { ToolStep } from '../tool-steps';

/** Programs whose first operand is a subcommand: the session key is `program subcommand`. */
const SUBCOMMAND_PROGRAMS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'cargo', 'go', 'docker', 'podman', 'kubectl', 'gh', 'make', 'pip', 'pip3',
  'brew', 'deno', 'dotnet', 'bundle', 'mix', 'poetry', 'uv', 'terraform', 'lerna', 'nx', 'turbo', 'npx', 'pnpx',
  'bunx', 'systemctl', 'gradle', 'mvn', 'composer', 'gem', 'conda', 'apt', 'apt-get', 'dnf', 'yum',
]);

const GIT_VALUED_GLOBALS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--attr-source', '--list-cmds']);

/**
 * What an 'allow-session' answer allows: `program subcommand` for programs with subcommands
 * (`git commit`, `npm test`), otherwise the exact command line. Never wider than what was shown.
 */
export function sessionKey(step: Step): string {
  switch (step.tool) {
    case 'exec': {
      const args = step.args ?? [];
      if (!SUBCOMMAND_PROGRAMS.has(step.program)) return [step.program, ...args].join(' ');
      let i = 0;
      if (step.program === 'git') {
        while (i < args.length && args[i].startsWith('-')) i += GIT_VALUED_GLOBALS.has(args[i]) ? 2 : 1;
      } else {
        while (i < args.length && args[i].startsWith('-')) i++;
      }
      // Options before the subcommand (`git -C other commit`, `npm --prefix x install`) are part
      // of what was allowed; for programs other than git, whose options may take values we do
      // not know, the whole line is the key then.
      if (i > 0 && step.program !== 'git') return [step.program, ...args].join(' ');
      return [step.program, ...args.slice(0, i + 1)].join(' ');
    }
    case 'plugin.run':
      return `plugin.run ${step.plugin}`;
    case 'config.json_patch':
      return `config.json_patch ${step.file}`;
    case 'fs.read':
    case 'fs.edit':
    case 'fs.write':
    case 'http.get':
    case 'proc.start':
    case 'proc.status':
    case 'proc.kill':
      return toolSessionKey(step, (program, args) => sessionKey({ tool: 'exec', program, args }));
    default:
      return String((step as { tool?: unknown }).tool);
  }
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/**
 * Keep only well-formed policy settings (they come from a config file): booleans stay booleans
 * only when they are `true`, lists keep their string entries. Anything else is dropped.
 */
export function normalizePolicy(raw: unknown): Policy {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const list = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : undefined);
  const out: Policy = {};
  const allowedPrograms = list(r.allowedPrograms);
  if (allowedPrograms) out.allowedPrograms = allowedPrograms;
  const trustedPlugins = list(r.trustedPlugins);
  if (trustedPlugins) out.trustedPlugins = trustedPlugins;
  for (const k of ['allowNetwork', 'allowWrite', 'allowSudo'] as const) if (r[k] === true) out[k] = true;
  if (r.allowPrivateNetwork === true) out.allowPrivateNetwork = true;
  else {
    const hosts = list(r.allowPrivateNetwork);
    if (hosts?.length) out.allowPrivateNetwork = hosts;
  }
  return out;
}

/** Structural check of an untrusted step; returns an error text or undefined. */
export function validateStep(step: unknown): string | undefined {
  if (typeof step !== 'object' || step === null) return 'expected an object';
  const s = step as Record<string, unknown>;
  const tool = s.tool ?? 'exec';
  if (tool === 'exec') {
    if (typeof s.program !== 'string') return 'exec needs "program" (a string)';
    if (!isStringArray(s.args ?? [])) return 'exec "args" must be an array of strings';
    if (s.cwd !== undefined && s.cwd !== null && typeof s.cwd !== 'string') return '"cwd" must be a string or null';
    return undefined;
  }
  if (tool === 'plugin.run') {
    if (typeof s.plugin !== 'string') return 'plugin.run needs "plugin" (a string)';
    if (!isStringArray(s.args ?? [])) return 'plugin.run "args" must be an array of strings';
    return undefined;
  }
  if (tool === 'config.json_patch') {
    if (typeof s.file !== 'string') return 'config.json_patch needs "file" (a string)';
    if (!Array.isArray(s.patch) || !s.patch.every((op) => typeof op === 'object' && op !== null && typeof (op as { op?: unknown }).op === 'string' && typeof (op as { path?: unknown }).path === 'string')) {
      return 'config.json_patch "patch" must be an array of {op, path, value?}';
    }
    return undefined;
  }
  if (typeof tool === 'string' && TOOL_STEP_NAMES.has(tool)) return validateToolStep(tool, s);
  return `unknown tool "${String(tool)}"`;
}

function requiresFindings(req: Requires | undefined, policy: Policy): Finding[] {
  if (!req || typeof req !== 'object') return [];
  const out: Finding[] = [];
  if (req.elevated === true) out.push(finding('requires.elevated', policy.allowSudo ? 'L1' : 'L2'));
  if (req.confirm === true) out.push(finding('requires.confirm', 'L1'));
  if (req.write === true && !policy.allowWrite) out.push(finding('requires.write', 'L1'));
  if (req.network === true && !policy.allowNetwork) out.push(finding('requires.network', 'L1'));
  return out;
}

const PLUGIN_INFO_ARGS = new Set(['--help', '-h', '--version', '-v', '-V', 'help', 'version']);

function pluginFindings(step: Extract<Step, { tool: 'plugin.run' }>, policy: Policy, ctx: ClassifyContext): Finding[] {
  const alias = step.plugin;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(alias)) return [finding('program.lookalike', 'L2', { p: alias, like: alias.normalize('NFKC') })];
  if (alias === 'ai') return [finding('plugin.self', 'L2')];
  const info = ctx.plugins && Object.prototype.hasOwnProperty.call(ctx.plugins, alias) ? ctx.plugins[alias] : undefined;
  if (ctx.plugins && !info) return [finding('plugin.missing', 'L2', { p: alias })];
  if ((info as { name?: string } | undefined)?.name === '@holic512/plugin-ai') return [finding('plugin.self', 'L2')];
  const out: Finding[] = [];
  step.args.forEach((a, i) => {
    if (INVISIBLE_RE.test(a)) out.push(finding('args.invisible', 'L2', { n: String(i + 1) }));
  });
  out.push(...secretFindings(step.args));
  if (info?.interactive) return [...out, finding('plugin.interactive', 'L1', { p: alias })];
  if (step.args.length === 1 && PLUGIN_INFO_ARGS.has(step.args[0])) return [...out, finding('plugin.info', 'L0', { p: alias, a: step.args[0] })];
  if (policy.trustedPlugins?.includes(alias)) return [...out, finding('plugin.trusted', 'L0', { p: alias })];
  return [...out, finding('plugin.run', 'L1', { p: alias })];
}

function expandHome(file: string, home?: string, slothtoolHome?: string): string {
  if (slothtoolHome && (file === '~/.slothtool' || file.startsWith('~/.slothtool/'))) return path.join(slothtoolHome, file.slice('~/.slothtool'.length));
  if (home && (file === '~' || file.startsWith('~/'))) return path.join(home, file.slice(1));
  return file;
}

/** Whether `abs` lies inside `root`: a folder, an exact file, or a pattern whose `*` and `?` match within one segment. */
function insideRoot(abs: string, root: string, ctx: ClassifyOptions): boolean {
  const r = path.resolve(expandHome(root, ctx.home, ctx.slothtoolHome));
  if (/[*?]/.test(r)) {
    const re = new RegExp('^' + r.split('').map((ch) => (ch === '*' ? '[^/\\\\]*' : ch === '?' ? '[^/\\\\]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('') + '$');
    return re.test(abs);
  }
  if (abs === r) return true;
  const rel = path.relative(r, abs);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function patchFindings(step: Extract<Step, { tool: 'config.json_patch' }>, ctx: ClassifyOptions): Finding[] {
  const file = expandHome(step.file, ctx.home, ctx.slothtoolHome);
  if (ctx.allowedRoots) {
    const abs = path.resolve(ctx.cwd ?? '/', file);
    if (!ctx.allowedRoots.some((root) => insideRoot(abs, root, ctx))) return [finding('config.outside', 'L2', { f: step.file })];
  }
  return [finding('config.patch', 'L1', { f: step.file })];
}

/** Options of {@link classify} beyond the contract's ClassifyContext. */
export interface ClassifyOptions extends ClassifyContext, ToolJudgeCtx {
  /** config.json_patch: folders, files or `*` patterns a patched file must match (json-patch's defaultAllowedRoots). */
  allowedRoots?: string[];
  /** Where `~/.slothtool` points (SLOTHTOOL_HOME), for config.json_patch paths. */
  slothtoolHome?: string;
}

/** Lower L1 findings whose every category the policy allows; add a rule saying so. */
function applyPolicy(found: Finding[], policy: Policy): Finding[] {
  const out: Finding[] = [];
  for (const f of found) {
    const cats = f.cat ?? [];
    const allowed = f.level === 'L1' && cats.length > 0 && cats.every((c) => (c === 'network' ? policy.allowNetwork : policy.allowWrite));
    if (!allowed) {
      out.push(f);
      continue;
    }
    out.push({ ...f, level: 'L0' });
    const setting = cats.map((c) => (c === 'network' ? 'allowNetwork' : 'allowWrite')).join(' + ');
    out.push(finding('policy.lowered', 'L0', { setting }));
  }
  return out;
}

/** Turn findings into the user-facing decision: strictest first, duplicates dropped. */
export function render(found: Finding[], lang: ClassifyContext['lang'] = 'zh'): Decision {
  const language = lang ?? 'zh';
  let level: Level = 'L0';
  for (const f of found) if (f.level === 'L2' || (f.level === 'L1' && level === 'L0')) level = f.level;
  // Strictest first (stable within a level), duplicates dropped. Above L0, "only reads" would
  // only confuse: those rules are not even rendered, except the ones that say why something
  // was let through.
  const buckets: Record<Level, Rule[]> = { L2: [], L1: [], L0: [] };
  const seen = new Set<string>();
  for (const f of found) {
    if (level !== 'L0' && f.level === 'L0' && f.id !== 'policy.lowered' && f.id !== 'session.allowed') continue;
    const { reason, hint } = message(f.msg ?? f.id, language, f.params, f.level !== 'L0');
    const key = `${f.id}|${f.level}|${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    buckets[f.level].push(hint ? { id: f.id, level: f.level, reason, hint } : { id: f.id, level: f.level, reason });
  }
  const rules = buckets.L1.length || buckets.L0.length ? [...buckets.L2, ...buckets.L1, ...buckets.L0] : buckets.L2;
  return { level, rules };
}

/** The findings behind {@link classify}, before rendering. */
export function classifyFindings(step: Step, rawPolicy: Policy = {}, ctx: ClassifyOptions = {}): Finding[] {
  const policy = normalizePolicy(rawPolicy);
  const invalid = validateStep(step);
  if (invalid) return [finding('step.invalid', 'L2', { e: invalid })];
  const tool = (step as { tool?: string }).tool ?? 'exec';
  let found: Finding[];
  if (tool === 'exec') {
    const s = step as Extract<Step, { tool: 'exec' }>;
    const cwd = typeof s.cwd === 'string' && s.cwd ? path.resolve(ctx.cwd ?? '/', s.cwd) : ctx.cwd;
    const jctx: JudgeCtx = { cwd: ctx.cwd ?? cwd, ...(cwd && cwd !== ctx.cwd ? { runCwd: cwd } : {}), home: ctx.home, policy, depth: 0 };
    found = judgeCommand(s.program, s.args ?? [], jctx);
    if (cwd && cwd !== ctx.cwd) found.push(...secretFindings([cwd]));
  } else if (tool === 'plugin.run') {
    found = pluginFindings(step as Extract<Step, { tool: 'plugin.run' }>, policy, ctx);
  } else if (TOOL_STEP_NAMES.has(tool)) {
    found = toolFindings(step as ToolStep, policy, ctx);
  } else {
    found = patchFindings(step as Extract<Step, { tool: 'config.json_patch' }>, ctx);
  }
  found.push(...requiresFindings(step.requires, policy));
  return applyPolicy(found, policy);
}

/**
 * Judge a step: pure, fast, explainable. The strictest fired rule decides the level.
 * `requires` from the model can raise the level, never lower it.
 */
export function classify(step: Step, policy: Policy = {}, ctx: ClassifyOptions = {}): Decision {
  return render(classifyFindings(step, policy, ctx), ctx.lang);
}


import { jsonLimitProblem } from '@holic512/shared/lib/json-limits';
import { z } from 'zod';
import type { Step } from '../types';
import { configJsonPatchTool } from './config-json-patch';
import { execTool } from './exec';
import { fsEditTool } from './fs-edit';
import { fsGlobTool } from './fs-glob';
import { fsGrepTool } from './fs-grep';
import { fsReadTool } from './fs-read';
import { fsWriteTool } from './fs-write';
import { httpGetTool } from './http-get';
import { pluginRunTool } from './plugin-run';
import { procKillTool, procStartTool, procStatusTool } from './proc';
import { webSearchTool } from './web-search';
import { planUpdateTool } from './plan-update';
import type { AnyToolDefinition } from './types';

/** Every built-in tool, in the order the prompt lists them. */
export const tools: readonly AnyToolDefinition[] = Object.freeze([
  execTool,
  pluginRunTool,
  configJsonPatchTool,
  fsReadTool,
  fsEditTool,
  fsWriteTool,
  fsGlobTool,
  fsGrepTool,
  httpGetTool,
  webSearchTool,
  procStartTool,
  procStatusTool,
  procKillTool,
  planUpdateTool,
] as AnyToolDefinition[]);

/** A tool name: dotted words (`exec`, `fs.read`, `mcp.github.create_issue`). */
export const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*$/;

/** A set of tools a runner judges and runs. Built-ins first; a sibling plugin or MCP adds its own. */
export interface ToolRegistry {
  readonly tools: readonly AnyToolDefinition[];
  get(name: string): AnyToolDefinition | undefined;
  /** Add a tool. Throws when the name is taken or malformed. */
  register(def: AnyToolDefinition): void;
  /** The zod schema of one step of any tool here (`tool` defaults to `exec`). */
  stepSchema(): z.ZodType<Step>;
  /** Check an untrusted step: the parsed step (defaults filled) or what is wrong. */
  validate(step: unknown): { ok: true; step: Step } | { ok: false; error: string };
  /** JSON Schema of a tool's input, generated from its zod schema. */
  jsonSchema(name: string): Record<string, unknown> | undefined;
}

/** `{...input, tool: <name>}`: the step shape of one tool. */
function stepObject(def: AnyToolDefinition) {
  return inputOf(def).extend({ tool: z.literal(def.name) });
}

const notZodObject = (def: AnyToolDefinition) => new TypeError(`tool ${def.name}: input must be a zod object schema`);

/** A tool's input schema: one given as a getter (the built-ins', built on first use) is checked here, when first read. */
function inputOf(def: AnyToolDefinition): AnyToolDefinition['input'] {
  const input = def.input;
  if (!(input instanceof z.ZodObject)) throw notZodObject(def);
  return input;
}

/** Text of the first few problems, naming the field: `args: expected array, received string`. */
export function describeIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = [...(prefix ? [prefix] : []), ...issue.path.map(String)].join('.');
      return `${where || '(step)'}: ${issue.message}`;
    })
    .join('; ');
}

function check(def: AnyToolDefinition): void {
  if (!def || typeof def !== 'object') throw new TypeError('a tool definition must be an object');
  if (typeof def.name !== 'string' || !TOOL_NAME.test(def.name))
    throw new TypeError(`"${String(def.name)}" is not a usable tool name (dotted words: fs.read, mcp.github.list)`);
  for (const key of ['assess', 'approvalKey', 'digest', 'execute'] as const) {
    if (typeof def[key] !== 'function') throw new TypeError(`tool ${def.name}: ${key} must be a function`);
  }
  if (def.summary !== undefined && typeof def.summary !== 'function')
    throw new TypeError(`tool ${def.name}: summary must be a function when given`);
  const claude = def.claude;
  if (
    claude !== undefined &&
    (!claude ||
      !Array.isArray(claude.names) ||
      !claude.names.every((n) => typeof n === 'string' && n !== '') ||
      typeof claude.input !== 'function')
  ) {
    throw new TypeError(`tool ${def.name}: claude needs names (Claude Code's tool names, strings) and input (a function)`);
  }
  // An input given as a getter is built on first use (inputOf checks it then); any other is checked now.
  const lazyInput = typeof Object.getOwnPropertyDescriptor(def, 'input')?.get === 'function';
  if (!lazyInput && !(def.input instanceof z.ZodObject)) throw notZodObject(def);
  if (typeof def.description?.en !== 'string' || typeof def.description?.zh !== 'string')
    throw new TypeError(`tool ${def.name}: description needs zh and en`);
}

/** Options of a registry. */
export interface ToolRegistryOptions {
  /**
   * Only the tools this accepts are in the registry (a sub-agent limited to its tools): the
   * others, built-in or registered later, are left out, and a step naming one is refused as a
   * tool this registry does not have, with `withheldNote` (why) beside the tools it does have.
   */
  only?: (def: AnyToolDefinition) => boolean;
  withheldNote?: string;
}

/** A registry of the built-in tools plus `extra` ones. Each runner owns its registry. */
export function createToolRegistry(extra: readonly AnyToolDefinition[] = [], options: ToolRegistryOptions = {}): ToolRegistry {
  const list: AnyToolDefinition[] = [];
  const byName = new Map<string, AnyToolDefinition>();
  const withheld = new Set<string>();
  let schema: z.ZodType<Step> | undefined;
  const registry: ToolRegistry = {
    get tools() {
      return list;
    },
    get: (name) => byName.get(name),
    register(def) {
      check(def);
      if (byName.has(def.name)) throw new Error(`a tool named "${def.name}" is already registered`);
      // Left out, now and when offered again (a tool that joins at every sync).
      if (withheld.has(def.name) || (options.only && !options.only(def))) {
        withheld.add(def.name);
        return;
      }
      list.push(def);
      byName.set(def.name, def);
      schema = undefined;
    },
    stepSchema() {
      if (!schema) {
        const options = list.map(stepObject) as unknown as [z.ZodObject<z.ZodRawShape>, ...z.ZodObject<z.ZodRawShape>[]];
        schema = z.preprocess(
          (value) =>
            value && typeof value === 'object' && !Array.isArray(value) && !('tool' in value) ? { ...value, tool: 'exec' } : value,
          z.discriminatedUnion('tool', options),
        ) as unknown as z.ZodType<Step>;
      }
      return schema;
    },
    validate(step) {
      if (typeof step !== 'object' || step === null || Array.isArray(step)) return { ok: false, error: 'expected an object' };
      const tooBig = jsonLimitProblem(step);
      if (tooBig) return { ok: false, error: `the step is too large or too deep: ${tooBig}` };
      const name = (step as { tool?: unknown }).tool ?? 'exec';
      if (typeof name !== 'string' || !byName.has(name)) {
        const why =
          typeof name === 'string' && withheld.has(name)
            ? `tool "${name}" is not available here${options.withheldNote ? ` (${options.withheldNote})` : ''}`
            : `unknown tool "${String(name)}"`;
        return { ok: false, error: `${why} (known: ${list.map((t) => t.name).join(', ')})` };
      }
      const parsed = registry.stepSchema().safeParse(step);
      return parsed.success ? { ok: true, step: parsed.data } : { ok: false, error: describeIssues(parsed.error, name) };
    },
    jsonSchema(name) {
      const def = byName.get(name);
      return def ? (z.toJSONSchema(inputOf(def), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>) : undefined;
    },
  };
  for (const def of [...tools, ...extra]) registry.register(def);
  return registry;
}

let shared: ToolRegistry | undefined;

/** The registry of the built-in tools, read-only (classify, validateStep, getTool use it). */
export function builtinRegistry(): ToolRegistry {
  if (!shared) {
    const own = createToolRegistry();
    shared = Object.freeze({
      ...own,
      get tools() {
        return own.tools;
      },
      register: () => {
        throw new Error('the built-in tool registry is read-only: createToolRegistry([...]) makes one you can add to');
      },
    });
  }
  return shared;
}

/** A built-in tool by name. */
export function getTool(name: string): AnyToolDefinition | undefined {
  return builtinRegistry().get(name);
}

/** JSON Schema of a built-in tool's input, generated from its zod schema. */
export function toolJsonSchema(name: string): Record<string, unknown> | undefined {
  return builtinRegistry().jsonSchema(name);
}

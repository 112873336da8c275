import { z } from 'zod';
import type { Step, ToolRegistry } from '@holic512/tool-runner';
import { lazy } from '@holic512/shared/lib/lazy';

/** Model → runner protocol (DESIGN §4, docs/protocol.md). Every reply is validated here. */

/** What plugin-ai needs of a tool registry: tool-runner's ToolRegistry, its step schema and tools (and its own check of one step, which says why a tool is unknown or not available here). */
export type StepRegistry = Pick<ToolRegistry, 'stepSchema' | 'get'> & Partial<Pick<ToolRegistry, 'validate'>>;

/** The built-in tools of @holic512/tool-runner: the one step schema (loaded when a reply is parsed). */
export function builtinStepRegistry(): StepRegistry {
  return (require('@holic512/tool-runner') as { builtinRegistry(): StepRegistry }).builtinRegistry();
}

/** One step, as the registry's tools define it. `tool` defaults to "exec" so the original cmd shape stays valid. */
export const stepSchema = lazy((): z.ZodType<Step> => z.lazy(() => builtinStepRegistry().stepSchema()));

/** The reply schemas, built on first use (a start that parses no reply builds none). */
function buildSchemas() {
  const chat = z.object({
    type: z.literal('chat'),
    message: z.string(),
    data: z
      .object({
        format: z.enum(['plain', 'markdown']).optional(),
        suggestions: z.array(z.string()).optional(),
      })
      .nullable()
      .optional(),
  });
  const error = z.object({
    type: z.literal('error'),
    message: z.string(),
  });
  // The marker llm-base puts on `data` when the model did not produce JSON.
  const fallback = z.object({ _fallback: z.literal(true), result: z.unknown() });
  return { chat, error, fallback };
}
const schemas = lazy(buildSchemas);

function cmdReplySchema(steps: z.ZodType<Step>) {
  return z.object({
    type: z.literal('cmd'),
    message: z.string().default(''),
    data: z.object({
      cwd: z.string().nullable().optional(),
      commands: z.array(steps).min(1).max(10),
      expected_effect: z.string().optional(),
    }),
  });
}

function replyUnion(steps: z.ZodType<Step>) {
  const { chat, error } = schemas();
  return z.discriminatedUnion('type', [chat, cmdReplySchema(steps), error]);
}

/** Every reply of the built-in tools (its steps checked on use: the step schema is lazy). */
export const replySchema = lazy((): z.ZodType<Reply> => z.lazy(() => replyUnion(stepSchema())) as unknown as z.ZodType<Reply>);

/** Reply schemas of registries with more than the built-in tools (MCP, a sibling plugin's),
 * rebuilt when the registry's step schema changes (a tool joined). */
const replySchemas = new WeakMap<StepRegistry, { steps: z.ZodType<Step>; schema: z.ZodType<Reply> }>();

function replySchemaFor(registry?: StepRegistry): z.ZodType<Reply> {
  if (!registry) return replySchema();
  const steps = registry.stepSchema();
  let cached = replySchemas.get(registry);
  if (!cached || cached.steps !== steps) {
    cached = { steps, schema: replyUnion(steps) as z.ZodType<Reply> };
    replySchemas.set(registry, cached);
  }
  return cached.schema;
}

/** The reply's JSON Schema for the json_schema transport (one per step schema, kept). */
const replyJsonSchemas = new WeakMap<object, Record<string, unknown>>();

export function replyJsonSchema(registry?: StepRegistry): Record<string, unknown> {
  const steps = (registry ?? builtinStepRegistry()).stepSchema();
  let schema = replyJsonSchemas.get(steps);
  if (!schema) {
    schema = z.toJSONSchema(replyUnion(steps), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete schema.$schema;
    replyJsonSchemas.set(steps, schema);
  }
  return schema;
}

export type { Step };
export type ChatReply = z.infer<ReturnType<typeof buildSchemas>['chat']>;
export type CmdReply = z.infer<ReturnType<typeof cmdReplySchema>>;
export type ErrorReply = z.infer<ReturnType<typeof buildSchemas>['error']>;
export type Reply = ChatReply | CmdReply | ErrorReply;

/** The result of checking one model reply. `raw` is the text to quote in a repair request. */
export type ParsedReply = { success: true; reply: Reply } | { success: false; error: string; raw: string };

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/** Validate a reply: either llm-base's parsed `data` object or raw text. Steps are checked
 * against `registry` (the runner's tools; default the built-in ones). Never throws. */
export function parseReply(value: unknown, registry?: StepRegistry): ParsedReply {
  if (typeof value === 'string') {
    const text = value.trim();
    const json = safeJsonParse(text) ?? safeJsonParse(extractJsonObject(text) ?? '');
    if (json === undefined) return { success: false, error: 'the reply is not a JSON object', raw: value };
    return parseReply(json, registry);
  }
  const fallback = schemas().fallback.safeParse(value);
  if (fallback.success) {
    const raw = typeof fallback.data.result === 'string' ? fallback.data.result : JSON.stringify(fallback.data.result);
    // Some models wrap valid JSON in prose or fences; llm-base 1.0.x gives up on those.
    const inner = safeJsonParse(extractJsonObject(raw) ?? '');
    if (inner !== undefined && !schemas().fallback.safeParse(inner).success) {
      const again = parseReply(inner, registry);
      if (again.success) return again;
    }
    return { success: false, error: 'the reply is not a JSON object', raw };
  }
  // Hostile structure (a patch value nested 100 000 deep) is a protocol error the model is told
  // about, never a stack overflow further on.
  const tooBig = (require('@holic512/shared/lib/json-limits') as typeof import('@holic512/shared/lib/json-limits')).jsonLimitProblem(value);
  if (tooBig)
    return { success: false, error: `the reply is too large or too deep: ${tooBig}; answer with a smaller reply`, raw: '(not shown)' };
  // A chat or error reply is what the union gives it (the union hands a known `type` to that
  // option alone), checked without building the registry's step schemas.
  const parsed = replyOptionFor(value)?.safeParse(value) ?? replySchemaFor(registry).safeParse(value);
  if (parsed.success) return { success: true, reply: parsed.data };
  return { success: false, error: unknownToolError(value, registry) ?? describeIssues(parsed.error), raw: safeStringify(value) };
}

/** A step naming a tool the registry does not have (or withholds: a sub-agent's), as the registry says it. */
function unknownToolError(value: unknown, registry?: StepRegistry): string | undefined {
  const commands = (value as { data?: { commands?: unknown } } | null)?.data?.commands;
  if (!registry?.validate || !Array.isArray(commands)) return undefined;
  for (const [i, step] of commands.entries()) {
    const checked = registry.validate(step);
    if (!checked.ok && /^(unknown tool|tool ".*" is not available here)/.test(checked.error)) return `data.commands.${i}: ${checked.error}`;
  }
  return undefined;
}

function replyOptionFor(value: unknown): z.ZodType<Reply> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const type = (value as { type?: unknown }).type;
  return type === 'chat' ? schemas().chat : type === 'error' ? schemas().error : undefined;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function safeJsonParse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The first balanced `{...}` in a text (fenced or embedded in prose), if any. */
export function extractJsonObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

/** The summary call's reply: `{summary, keyFacts, openTasks}`. */
function buildSummarySchema() {
  return z.object({
    summary: z.string(),
    keyFacts: z.array(z.string()).default([]),
    openTasks: z.array(z.string()).default([]),
  });
}
export type Summary = z.infer<ReturnType<typeof buildSummarySchema>>;
/** Built on first use, like the reply schemas. */
export const summarySchema = lazy((): z.ZodType<Summary> => buildSummarySchema() as unknown as z.ZodType<Summary>);

import { z } from 'zod';

/** Model → runner protocol (DESIGN §4, docs/protocol.md). Every reply is validated here. */

export const RequiresSchema = z
  .object({
    confirm: z.boolean().optional(),
    elevated: z.boolean().optional(),
    network: z.boolean().optional(),
    write: z.boolean().optional(),
  })
  .optional();

const ExecStepSchema = z.object({
  tool: z.literal('exec'),
  program: z.string().min(1),
  args: z.array(z.string()).default([]),
  cwd: z.string().nullable().optional(),
  requires: RequiresSchema,
  timeoutMs: z.number().int().positive().optional(),
});

const PluginRunStepSchema = z.object({
  tool: z.literal('plugin.run'),
  plugin: z.string().min(1),
  args: z.array(z.string()).default([]),
  requires: RequiresSchema,
});

const PatchOpSchema = z
  .object({
    op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test', 'set', 'unset']),
    path: z.string(),
    value: z.unknown().optional(),
    from: z.string().optional(),
  })
  .passthrough();

const JsonPatchStepSchema = z.object({
  tool: z.literal('config.json_patch'),
  file: z.string().min(1),
  patch: z.array(PatchOpSchema).min(1),
  requires: RequiresSchema,
});

const FsReadStepSchema = z.object({
  tool: z.literal('fs.read'),
  path: z.string().min(1),
  offset: z.number().int().positive().optional(),
  limit: z.number().int().positive().optional(),
  requires: RequiresSchema,
});

const FsEditStepSchema = z.object({
  tool: z.literal('fs.edit'),
  path: z.string().min(1),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
  requires: RequiresSchema,
});

const FsWriteStepSchema = z.object({
  tool: z.literal('fs.write'),
  path: z.string().min(1),
  content: z.string(),
  requires: RequiresSchema,
});

const HttpGetStepSchema = z.object({
  tool: z.literal('http.get'),
  url: z.string().min(1),
  requires: RequiresSchema,
});

const ProcStartStepSchema = z.object({
  tool: z.literal('proc.start'),
  program: z.string().min(1),
  args: z.array(z.string()).default([]),
  cwd: z.string().nullable().optional(),
  requires: RequiresSchema,
});

const ProcStatusStepSchema = z.object({
  tool: z.literal('proc.status'),
  proc_id: z.string().min(1),
  wait_ms: z.number().min(0).max(60000).optional(),
  requires: RequiresSchema,
});

const ProcKillStepSchema = z.object({
  tool: z.literal('proc.kill'),
  proc_id: z.string().min(1),
  requires: RequiresSchema,
});

/** One step. `tool` defaults to "exec" so the original cmd shape stays valid. */
export const StepSchema = z.preprocess(
  (value) =>
    value && typeof value === 'object' && !Array.isArray(value) && !('tool' in value)
      ? { ...value, tool: 'exec' }
      : value,
  z.discriminatedUnion('tool', [
    ExecStepSchema,
    PluginRunStepSchema,
    JsonPatchStepSchema,
    FsReadStepSchema,
    FsEditStepSchema,
    FsWriteStepSchema,
    HttpGetStepSchema,
    ProcStartStepSchema,
    ProcStatusStepSchema,
    ProcKillStepSchema,
  ]),
);

export const ChatReplySchema = z.object({
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

export const CmdReplySchema = z.object({
  type: z.literal('cmd'),
  message: z.string().default(''),
  data: z.object({
    cwd: z.string().nullable().optional(),
    commands: z.array(StepSchema).min(1).max(10),
    expected_effect: z.string().optional(),
  }),
});

export const ErrorReplySchema = z.object({
  type: z.literal('error'),
  message: z.string(),
});

export const ReplySchema = z.discriminatedUnion('type', [ChatReplySchema, CmdReplySchema, ErrorReplySchema]);

export type Step = z.infer<typeof StepSchema>;
export type ChatReply = z.infer<typeof ChatReplySchema>;
export type CmdReply = z.infer<typeof CmdReplySchema>;
export type ErrorReply = z.infer<typeof ErrorReplySchema>;
export type Reply = z.infer<typeof ReplySchema>;

/** The result of checking one model reply. `raw` is the text to quote in a repair request. */
export type ParsedReply =
  | { success: true; reply: Reply }
  | { success: false; error: string; raw: string };

/** Marker llm-base puts on `data` when the model did not produce JSON. */
const FallbackSchema = z.object({ _fallback: z.literal(true), result: z.unknown() });

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/** Validate a reply: either llm-base's parsed `data` object or raw text. Never throws. */
export function parseReply(value: unknown): ParsedReply {
  if (typeof value === 'string') {
    const text = value.trim();
    const json = safeJsonParse(text) ?? safeJsonParse(extractJsonObject(text) ?? '');
    if (json === undefined) return { success: false, error: 'the reply is not a JSON object', raw: value };
    return parseReply(json);
  }
  const fallback = FallbackSchema.safeParse(value);
  if (fallback.success) {
    const raw = typeof fallback.data.result === 'string' ? fallback.data.result : JSON.stringify(fallback.data.result);
    // Some models wrap valid JSON in prose or fences; llm-base 1.0.x gives up on those.
    const inner = safeJsonParse(extractJsonObject(raw) ?? '');
    if (inner !== undefined && !FallbackSchema.safeParse(inner).success) {
      const again = parseReply(inner);
      if (again.success) return again;
    }
    return { success: false, error: 'the reply is not a JSON object', raw };
  }
  const parsed = ReplySchema.safeParse(value);
  if (parsed.success) return { success: true, reply: parsed.data };
  return { success: false, error: describeIssues(parsed.error), raw: safeStringify(value) };
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

/** A one-line human summary of a step, e.g. `git status` or `plugin loc ./src`. */
export function describeStep(step: Step): string {
  switch (step.tool) {
    case 'exec':
      return [step.program, ...step.args].join(' ');
    case 'plugin.run':
      return ['plugin', step.plugin, ...step.args].join(' ');
    case 'config.json_patch':
      return `json_patch ${step.file} (${step.patch.length} op${step.patch.length === 1 ? '' : 's'})`;
    case 'fs.read':
      return `read ${step.path}${step.offset || step.limit ? ` (lines ${step.offset ?? 1}+${step.limit ? `, ${step.limit}` : ''})` : ''}`;
    case 'fs.edit':
      return `edit ${step.path}${step.replace_all ? ' (all)' : ''}`;
    case 'fs.write':
      return `write ${step.path}`;
    case 'http.get':
      return `GET ${step.url}`;
    case 'proc.start':
      return `start ${[step.program, ...step.args].join(' ')}`;
    case 'proc.status':
      return `status ${step.proc_id}${step.wait_ms ? ` (wait ${step.wait_ms} ms)` : ''}`;
    case 'proc.kill':
      return `kill ${step.proc_id}`;
  }
}

/** The summary call's reply: `{summary, keyFacts, openTasks}`. */
export const SummarySchema = z.object({
  summary: z.string(),
  keyFacts: z.array(z.string()).default([]),
  openTasks: z.array(z.string()).default([]),
});
export type Summary = z.infer<typeof SummarySchema>;

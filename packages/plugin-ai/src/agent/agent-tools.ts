/**
 * The `tools` transport: the runner's tools go to the model as native OpenAI tool definitions
 * (their JSON Schemas generated from the registry's zod schemas), and the model's tool calls
 * become the same steps the JSON protocol gives — validated, judged and run exactly as those.
 * Their results go back as `role: "tool"` messages paired with the calls' ids; plain text
 * without calls is the answer. Malformed calls get one repair round, as a malformed JSON reply.
 *
 * The conversation keeps each answer with its calls and each result as the tool message of its
 * call, as sent (context/messages.ts), so the next request extends this one.
 */
import { toolsOf } from './agent-approvals';
import type { AgentCore } from './agent-core';
import { addUsage, call, sealPrompts, type Asked } from './agent-model';
import { emit } from './agent-core';
import type { ContextMessage, ToolCall } from '../context/messages';
import type { UsageTotals } from './events';
import type { LlmToolCall } from '../config/llm-base';
import { buildToolRepairRequest } from '../context/prompt';
import { parseReply, type StepRegistry } from '../context/protocol';

/** What the transport needs of the runner's registry (tool-runner's ToolRegistry has it). */
interface ToolSource extends StepRegistry {
  readonly tools: ReadonlyArray<{ name: string; description: { en: string }; nativeParameters?: Record<string, unknown> }>;
  jsonSchema(name: string): Record<string, unknown> | undefined;
}

/** An OpenAI function name for a dotted tool name (`fs.read` → `fs__read`): `[A-Za-z0-9_-]`, ≤ 64. */
export function functionName(tool: string): string {
  return tool
    .replace(/\./g, '__')
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 64);
}

type Built = { names: Map<string, string>; wrapped: Set<string>; defs: unknown[] };
const definitions = new WeakMap<object, Map<string, Built>>();

/**
 * The registry's tools as OpenAI tool definitions, and function name → tool name. A tool with
 * `nativeParameters` (an MCP tool: its server's own schema) takes them as its parameters, and
 * its call's arguments become the step's `arguments`. Built once per step schema (a tool that
 * joins makes a new one), so requests stay byte-identical.
 */
export function toolDefinitions(registry: ToolSource, hidden: ReadonlySet<string> = new Set()): Built {
  const schema = registry.stepSchema();
  let byHidden = definitions.get(schema);
  if (!byHidden) definitions.set(schema, (byHidden = new Map()));
  const key = [...hidden].sort().join('\0');
  let built = byHidden.get(key);
  if (!built) {
    built = { names: new Map(), wrapped: new Set(), defs: [] };
    for (const tool of registry.tools) {
      if (hidden.has(tool.name)) continue;
      const fn = functionName(tool.name);
      if (built.names.has(fn)) continue; // two names folding to one: the first keeps it
      const parameters = { ...(tool.nativeParameters ?? registry.jsonSchema(tool.name) ?? { type: 'object' }) };
      delete parameters.$schema;
      built.names.set(fn, tool.name);
      if (tool.nativeParameters) built.wrapped.add(tool.name);
      built.defs.push({ type: 'function', function: { name: fn, description: tool.description.en, parameters } });
    }
    byHidden.set(key, built);
  }
  return built;
}

/** Registered tools that are not offered now: those of MCP servers turned off (or gone) this session. */
function hiddenTools(core: AgentCore, registry: ToolSource): Set<string> {
  if (!core.deps.dynamicTools) return new Set();
  const active = core.dynamicNames ?? new Set<string>();
  return new Set(registry.tools.map((t) => t.name).filter((n) => n.startsWith('mcp.') && !active.has(n)));
}

/** The steps of the model's calls as a cmd reply, validated like a JSON-protocol reply. */
export function replyOfCalls(
  text: string,
  calls: readonly LlmToolCall[],
  registry: ToolSource,
  hidden?: ReadonlySet<string>,
): ReturnType<typeof parseReply> {
  const { names, wrapped } = toolDefinitions(registry, hidden);
  const problems: string[] = [];
  const commands = calls.map((c) => {
    const tool = names.get(c.name);
    if (!tool) problems.push(`${c.name}: no such tool (known: ${[...names.keys()].join(', ')})`);
    let args: unknown;
    try {
      args = c.arguments.trim() ? JSON.parse(c.arguments) : {};
    } catch (err) {
      problems.push(`${c.name}: the arguments are not JSON (${(err as Error).message})`);
    }
    const fields = args && typeof args === 'object' && !Array.isArray(args) ? args : {};
    return tool && wrapped.has(tool) ? { tool, arguments: fields } : { ...fields, tool: tool ?? c.name };
  });
  if (problems.length) return { success: false, error: problems.join('; '), raw: JSON.stringify(calls) };
  return parseReply({ type: 'cmd', message: text, data: { cwd: null, commands } }, registry);
}

/** The calls of an answer that did not validate, answered by why, then the request to call again: for the repair call only, never kept. */
function repairMessages(text: string, calls: readonly LlmToolCall[], error: string): ContextMessage[] {
  return [
    { role: 'assistant', kind: 'assistant', content: text, calls: calls.map((c) => ({ ...c })) },
    ...calls.map((c): ContextMessage => ({
      role: 'tool',
      kind: 'tool',
      callId: c.id,
      content: JSON.stringify({ error: 'not run: the call did not validate' }),
    })),
    { role: 'user', kind: 'event', content: buildToolRepairRequest(error) },
  ];
}

/** One answer through native tool calls: text → chat; calls → a cmd reply; invalid calls → one
 * repair round; still invalid → the text (or the calls) as a raw chat. */
export async function askWithTools(core: AgentCore, current: ContextMessage[], signal: AbortSignal, turn: UsageTotals): Promise<Asked> {
  const registry = toolsOf(core) as unknown as ToolSource;
  const hidden = hiddenTools(core, registry);
  const { defs } = toolDefinitions(registry, hidden);
  sealPrompts(core);
  const first = await call(core, core.context.request(current, 'tools'), signal, 'reply', false, { tools: defs });
  if (!first.ok) return { ok: false, code: first.code, message: first.message };
  addUsage(core, first.usage, turn, first.model);
  const answered = answerOf(first.text ?? '', first.toolCalls ?? [], registry, hidden, false);
  if (answered.ok) return answered;
  emit(core, { type: 'repair', error: answered.error });
  const second = await call(
    core,
    core.context.request([...current, ...repairMessages(first.text ?? '', first.toolCalls ?? [], answered.error)], 'tools'),
    signal,
    'repair',
    false,
    { tools: defs },
  );
  if (!second.ok)
    return second.code === 'ABORTED' ? { ok: false, code: second.code, message: second.message } : rawChat(first.text || answered.raw);
  addUsage(core, second.usage, turn, second.model);
  const again = answerOf(second.text ?? '', second.toolCalls ?? [], registry, hidden, true);
  return again.ok ? again : rawChat(second.text || again.raw);
}

/** An answer's text and calls as a validated reply, or why they are not one. */
function answerOf(
  text: string,
  calls: readonly LlmToolCall[],
  registry: ToolSource,
  hidden: ReadonlySet<string>,
  repaired: boolean,
): Extract<Asked, { ok: true }> | { ok: false; error: string; raw: string } {
  if (!calls.length) return { ok: true, reply: { type: 'chat', message: text, data: { format: 'markdown' } }, raw: false, repaired, text };
  const parsed = replyOfCalls(text, calls, registry, hidden);
  if (!parsed.success) return { ok: false, error: parsed.error, raw: parsed.raw };
  const kept: ToolCall[] = calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
  return { ok: true, reply: parsed.reply, raw: false, repaired, text, calls: kept };
}

/** Text shown as chat after a failed repair, marked raw. */
function rawChat(text: string): Asked {
  return { ok: true, reply: { type: 'chat', message: text }, raw: true, repaired: false, text };
}

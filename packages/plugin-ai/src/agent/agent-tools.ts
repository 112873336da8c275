/**
 * The `tools` transport: the runner's tools go to the model as native OpenAI tool definitions
 * (their JSON Schemas generated from the registry's zod schemas), and the model's tool calls
 * become the same steps the JSON protocol gives — validated, judged and run exactly as those.
 * Their results go back as `role: "tool"` messages paired with the calls' ids; plain text
 * without calls is the answer. Malformed calls get one repair round, as a malformed JSON reply.
 *
 * The conversation window stays as it is (compact text of earlier turns, DESIGN §6): only the
 * exchange in flight — the last answer's calls and their results — travels in the tool shape.
 */
import { toolsOf } from './agent-approvals';
import type { AgentCore, Pending } from './agent-core';
import { addUsage, call, toMessages, type Asked } from './agent-model';
import { emit } from './agent-core';
import type { ChatMessage } from '../context/context';
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
  return tool.replace(/\./g, '__').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
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
export function replyOfCalls(text: string, calls: readonly LlmToolCall[], registry: ToolSource, hidden?: ReadonlySet<string>): ReturnType<typeof parseReply> {
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

/** The assistant message that made the calls, as the API wants it back. */
function callMessage(text: string, calls: readonly LlmToolCall[]): ChatMessage {
  const message = { role: 'assistant', content: text, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) };
  return message as unknown as ChatMessage;
}

/**
 * The request of this round: the tools system prompt, the window, and the exchange in flight —
 * the last answer's calls followed by one tool message per result, paired by position with
 * the calls' ids. Results that cannot be paired (the calls were folded away) stay user messages.
 */
function requestMessages(core: AgentCore, pending: Pending[], current: ChatMessage[]): ChatMessage[] {
  const built = core.context.build(current);
  if (core.options.toolsSystemPrompt) built[0] = { role: 'system', content: core.options.toolsSystemPrompt };
  const last = core.lastToolCalls;
  const results = pending.map((p, i) => (p.kind === 'tool' ? i : -1)).filter((i) => i >= 0);
  if (!last || results.length !== last.calls.length) return built;
  const start = built.length - current.length;
  const before = built[start - 1];
  if (!before || before.role !== 'assistant') return built;
  const out = built.slice(0, start - 1);
  out.push(callMessage(last.text, last.calls));
  const inputs = built.slice(start);
  results.forEach((at, n) => out.push({ role: 'tool', tool_call_id: last.calls[n].id, content: inputs[at].content } as unknown as ChatMessage));
  inputs.forEach((m, i) => {
    if (!results.includes(i)) out.push(m);
  });
  return out;
}

/** One answer through native tool calls: text → chat; calls → a cmd reply; invalid calls → one
 * repair round; still invalid → the text (or the calls) as a raw chat. */
export async function askWithTools(core: AgentCore, pending: Pending[], signal: AbortSignal, turn: UsageTotals): Promise<Asked> {
  const registry = toolsOf(core) as unknown as ToolSource;
  const hidden = hiddenTools(core, registry);
  const { defs } = toolDefinitions(registry, hidden);
  const current = toMessages(core, pending);
  const messages = requestMessages(core, pending, current);
  const first = await call(core, messages, signal, 'reply', false, { tools: defs });
  core.lastToolCalls = undefined;
  if (!first.ok) return { ok: false, code: first.code, message: first.message };
  addUsage(core, first.usage, turn, first.model);
  const calls = first.toolCalls ?? [];
  const text = first.text ?? '';
  if (!calls.length) return { ok: true, reply: { type: 'chat', message: text, data: { format: 'markdown' } }, raw: false, repaired: false };
  const parsed = replyOfCalls(text, calls, registry, hidden);
  if (parsed.success) {
    core.lastToolCalls = { text, calls };
    return { ok: true, reply: parsed.reply, raw: false, repaired: false };
  }
  emit(core, { type: 'repair', error: parsed.error });
  // The calls go back answered by why they could not be used, then the request to call again.
  const repair: ChatMessage[] = [
    ...messages,
    callMessage(text, calls),
    ...calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: JSON.stringify({ error: 'not run: the call did not validate' }) }) as unknown as ChatMessage),
    { role: 'user', content: buildToolRepairRequest(parsed.error) },
  ];
  const second = await call(core, repair, signal, 'repair', false, { tools: defs });
  if (!second.ok) return second.code === 'ABORTED' ? { ok: false, code: second.code, message: second.message } : { ok: true, reply: { type: 'chat', message: text || parsed.raw }, raw: true, repaired: false };
  addUsage(core, second.usage, turn, second.model);
  const again = second.toolCalls ?? [];
  if (!again.length) return { ok: true, reply: { type: 'chat', message: second.text ?? '', data: { format: 'markdown' } }, raw: false, repaired: true };
  const reparsed = replyOfCalls(second.text ?? '', again, registry, hidden);
  if (reparsed.success) {
    core.lastToolCalls = { text: second.text ?? '', calls: again };
    return { ok: true, reply: reparsed.reply, raw: false, repaired: true };
  }
  return { ok: true, reply: { type: 'chat', message: second.text || reparsed.raw }, raw: true, repaired: false };
}

import type { Lang } from '../i18n';

/** What the system prompt says about where the assistant runs. */
export interface Environment {
  cwd: string;
  os: string;
  plugins: string[];
  lang: Lang;
  /** Memory (AGENTS.md / CLAUDE.md, the user's and the project's), already capped. */
  projectContext?: { file: string; text: string };
  /** The skills' index (extensions/skills.ts `skillIndex`), when there are skills. */
  skills?: string;
  /** The named agents' index (extensions/agents.ts `agentIndex`), when there are agents (never a child's). */
  agents?: string;
}

/** Marker the summary request carries so logs and test servers can tell it apart. */
export const SUMMARY_MARKER = '[ai:summary-request]';

/** The rules of the built-in tools, the same in both transports. */
const TOOL_RULES = `- Read and change files with fs.read / fs.edit / fs.write, not cat/sed/tee. Copy old_string exactly from fs.read output (without the line-number prefix); add surrounding lines when it is not unique. Several changes to one file go in one fs.edit with "edits": [{old_string, new_string}, …] (applied in order, all or nothing). The user sees a diff before each change and can /undo a turn's changes.
- Find files with fs.glob and search their contents with fs.grep, not find/grep/rg: results come structured, capped, with secret files skipped.
- Run long builds, tests and servers with proc.start, then proc.status (with wait_ms) until "exited"; proc.kill what you no longer need.
- For a task of three or more steps, keep a plan with plan.update (the whole list, one step in_progress) before you start and as each step finishes; not for a question or a one-step change.`;

const PROTOCOL_TEMPLATE = `You are "ai", a terminal assistant run by SlothTool. You never run anything yourself:
you answer with EXACTLY ONE JSON object and nothing else (no prose, no code fences). A local
runner validates it, judges the risk of every step, asks the user where needed, runs the steps
without a shell and sends you the results.

Reply shapes:
1. {"type":"chat","message":"<answer>","data":{"format":"plain"|"markdown","suggestions":["..."]}}
   Use for answers, questions to the user, and the final summary after commands ran.
2. {"type":"cmd","message":"<why these steps>","data":{"cwd":null,"commands":[STEP,...],"expected_effect":"<what should change>"}}
3. {"type":"error","message":"<why the request cannot be done>"}

STEP shapes ("tool" defaults to "exec"), one per tool:
{{TOOLS}}

After your steps ran you receive one user message per step whose content is JSON:
{"_event":"tool_result","id":"cmd_001","tool":"exec","program":"git","args":["status"],"exitCode":0,"stdoutTail":"...","stderrTail":"","truncated":false,"parsed":{...},"decision":{"level":"L0","by":"policy","rules":[...]}}
or {"_event":"tool_result","id":"cmd_002","status":"blocked"|"declined","decision":{...}} when a step did not run.
{"_event":"continue"} means: the user lets you go on after a pause.

Rules:
- One JSON object per reply. "program" is a single executable name; arguments go in "args" (no shell: no pipes, redirects, globs, "&&" or "$VAR").
${TOOL_RULES}
- Prefer read-only commands. Set "requires" honestly: it can only raise the risk level, never lower it.
- Risk levels: L0 runs at once; L1 (writes, network, installs) needs the user's consent; L2 (sudo, destructive, arbitrary code, not allowed) is refused. If a step is blocked or declined, do not repeat it: explain, or choose another way.
- Output reaches you as a tail plus a parsed summary after secrets were redacted; ask for narrower commands instead of dumping large files.
- When the results answer the question, reply with "chat" and stop requesting commands.
- Conversation history may arrive as a summary plus recent messages; trust the summary.`;

const TOOLS_PROTOCOL = `You are "ai", a terminal assistant run by SlothTool. You never run anything yourself: you
call the tools you are given. A local runner validates each call, judges its risk, asks the user
where needed, runs it without a shell and sends you the result.

Rules:
- Call tools to look at and change things; several calls in one answer run in order. When the results answer the request, reply with plain text (Markdown is fine) and no tool call: that text is your answer to the user.
- exec runs a single executable with its arguments (no shell: no pipes, redirects, globs, "&&" or "$VAR").
${TOOL_RULES}
- Prefer read-only calls. Set "requires" honestly: it can only raise the risk level, never lower it.
- Risk levels: L0 runs at once; L1 (writes, network, installs) needs the user's consent; L2 (sudo, destructive, arbitrary code, not allowed) is refused. If a call is blocked or declined, do not repeat it: explain, or choose another way.
- Output reaches you as a tail plus a parsed summary after secrets were redacted; ask for narrower commands instead of dumping large files.
- Conversation history may arrive as a summary plus recent messages; trust the summary.`;

/** What the prompt needs of a tool: the registry's definitions satisfy it. */
export interface PromptTool {
  name: string;
  description: { en: string };
  example: Record<string, unknown>;
}

/** One line per tool: its step shape (from the tool's example) and what it is for. */
export function toolLines(tools: readonly PromptTool[]): string {
  return tools.map((t) => `- ${JSON.stringify({ tool: t.name, ...t.example })}  ${t.description.en}`).join('\n');
}

/** The protocol text with the tools listed; byte-identical for the same tools (no clock, no counters). */
export function protocolText(tools: readonly PromptTool[]): string {
  return PROTOCOL_TEMPLATE.replace('{{TOOLS}}', toolLines(tools));
}

/** The built-in tools of @holic512/tool-runner (loaded on the paths that build a prompt). */
export function builtinTools(): readonly PromptTool[] {
  return (require('@holic512/tool-runner') as { tools: readonly PromptTool[] }).tools;
}

/**
 * The system prompt: protocol and rules, then a short environment block, then the project's
 * instructions. `transport` `tools`: the model gets the tools as native definitions, so the
 * protocol part says how to call them instead of listing JSON step shapes.
 */
export function buildSystemPrompt(
  env: Environment,
  tools: readonly PromptTool[] = builtinTools(),
  transport: 'json' | 'tools' = 'json',
): string {
  const language = env.lang === 'zh' ? 'Chinese (zh)' : 'English (en)';
  const parts = [
    transport === 'tools' ? TOOLS_PROTOCOL : protocolText(tools),
    `Environment:\n- cwd: ${env.cwd}\n- os: ${env.os}\n- installed SlothTool plugins: ${
      env.plugins.length ? env.plugins.join(', ') : '(none)'
    }\n- answer the user in ${language} unless they write in another language`,
  ];
  if (env.skills) parts.push(env.skills);
  if (env.agents) parts.push(env.agents);
  if (env.projectContext) {
    parts.push(`Instructions from memory files, the user's then the project's (${env.projectContext.file}):\n${env.projectContext.text}`);
  }
  return parts.join('\n\n');
}

/** The repair request sent once after tool calls that did not validate. */
export function buildToolRepairRequest(error: string): string {
  return `Your tool calls could not be used: ${error}. Call the tools again with arguments that follow their schemas, or answer in plain text.`;
}

/** The repair request sent once after an invalid reply. */
export function buildRepairRequest(error: string): string {
  return `Your previous reply did not follow the protocol: ${error}. Answer again with exactly one JSON object of type "chat", "cmd" or "error" as described in the system prompt, and nothing else.`;
}

export const SUMMARY_SYSTEM = `${SUMMARY_MARKER} You compress a conversation between a user and a terminal assistant.
Reply with exactly one JSON object: {"summary":"<what happened and what matters, at most ~150 words>","keyFacts":["<fact>",...],"openTasks":["<task>",...]}.
Keep file names, commands, decisions and results the assistant will need later. No prose outside the JSON.`;

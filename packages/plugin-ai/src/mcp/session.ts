/**
 * The MCP servers of one `ai` session: the user's (`mcpServers` in ai.json) and, once the folder
 * is trusted, the project's `.mcp.json`. They start in the background when the session starts;
 * the agent asks `current()` before each model call, so tools join as their server connects.
 */
import fs = require('fs');
import path = require('path');
import type { AnyToolDefinition } from '@holic512/tool-runner';
import { readMcpServers, type McpConfigProblem, type McpServerConfig } from './config';
import { McpManager, type McpServerState } from './manager';
import { addKnownSecrets } from '@holic512/shared';
import { mcpServerSecrets } from '../config/known-secrets';
import { mcpDescribeTool, mcpPromptSection, mcpToolDefinition } from './tools';

/** What the agent needs of tools that join during a session (agent-core `DynamicTools`). */
export interface McpSessionView {
  /** Wait until no server is still starting, at most `maxMs` (or until `signal` aborts). */
  settle(maxMs: number, signal?: AbortSignal): Promise<void>;
  /** The tools of the connected servers, the prompt section, and a key that changes with them. */
  current(): { key: string; tools: readonly AnyToolDefinition[]; prompt: string };
}

export interface McpSetup {
  /** ai.json's `mcpServers`. */
  user: unknown;
  userFile: string;
  /** More of the user's own servers after ai.json's (Claude Code's `~/.claude.json`), each with its source. */
  more?: ReadonlyArray<{ raw: unknown; source: string }>;
  /** The project folder (its `.mcp.json` is read only when `projectTrusted`). */
  projectRoot: string;
  projectTrusted: boolean;
  env: NodeJS.ProcessEnv;
  /** Variables every stdio server gets (Claude Code's settings `env`, as it gives its servers);
   * a server's own `env` entry wins over them. */
  serverEnv?: Readonly<Record<string, string>>;
  cwd: string;
  clientVersion: string;
}

/** Read the project's `.mcp.json` (`{"mcpServers": {...}}`). */
function readProjectFile(file: string): { raw?: unknown; problem?: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const data = JSON.parse(text) as { mcpServers?: unknown };
    return { raw: data && typeof data === 'object' ? data.mcpServers : undefined };
  } catch (err) {
    return { problem: `${(err as Error).message}; fix the JSON or remove the file` };
  }
}

export class McpSession implements McpSessionView {
  readonly manager: McpManager;
  readonly problems: McpConfigProblem[];
  /** A project `.mcp.json` with servers that stays off because the folder is not trusted. */
  readonly untrustedProject: boolean;
  private readonly defs = new Map<string, AnyToolDefinition>();
  private readonly describe: AnyToolDefinition;
  private readonly hosts = new Map<string, string>();

  constructor(setup: McpSetup) {
    // `${CLAUDE_PROJECT_DIR}` expands to the project folder, and every stdio server gets it too,
    // with the settings' `env` (the MCP SDK passes a server only a safe part of our environment).
    const env = { ...setup.env, CLAUDE_PROJECT_DIR: setup.projectRoot };
    const user = readMcpServers(setup.user, setup.userFile, env);
    const problems = [...user.problems];
    for (const more of setup.more ?? []) {
      const read = readMcpServers(more.raw, more.source, env);
      problems.push(...read.problems);
      const known = new Set(user.servers.map((s) => s.name));
      user.servers.push(...read.servers.filter((s) => !known.has(s.name)));
    }
    const projectFile = path.join(setup.projectRoot, '.mcp.json');
    const projectRaw = readProjectFile(projectFile);
    let project: McpServerConfig[] = [];
    if (projectRaw.problem) problems.push({ name: '*', source: projectFile, error: projectRaw.problem });
    const hasProject = projectRaw.raw !== undefined && projectRaw.raw !== null && Object.keys(projectRaw.raw as object).length > 0;
    if (hasProject && setup.projectTrusted) {
      const read = readMcpServers(projectRaw.raw, projectFile, env);
      problems.push(...read.problems);
      // A repository can never vouch for its own servers: only the user's ai.json says trusted.
      const taken = new Set(user.servers.map((s) => s.name));
      project = read.servers.filter((s) => !taken.has(s.name)).map((s) => ({ ...s, trusted: false }));
    }
    this.untrustedProject = hasProject && !setup.projectTrusted;
    this.problems = problems;
    const base = { ...setup.serverEnv, CLAUDE_PROJECT_DIR: setup.projectRoot };
    const servers = [...user.servers, ...project].map((s) => (s.transport === 'stdio' ? { ...s, env: { ...base, ...s.env } } : s));
    for (const s of servers) {
      if (s.transport === 'http') this.hosts.set(s.name, safeHost(s.url));
      // What a server is configured with may come back in its output or errors: known values of the gate.
      addKnownSecrets(mcpServerSecrets(s));
    }
    this.manager = new McpManager(servers, { cwd: setup.cwd, clientInfo: { name: 'slothtool-ai', version: setup.clientVersion } });
    this.describe = mcpDescribeTool(this.manager);
  }

  /** Whether there is any server at all (none: nothing about MCP goes into the prompt). */
  get empty(): boolean {
    return this.manager.states().length === 0;
  }

  start(): void {
    this.manager.start();
  }

  async settle(maxMs: number, signal?: AbortSignal): Promise<void> {
    const starting = this.manager.states().filter((s) => s.status === 'starting');
    if (!starting.length || maxMs <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      Promise.all(starting.map((s) => this.manager.ready(s.name))),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxMs);
        onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    if (timer) clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }

  current(): { key: string; tools: readonly AnyToolDefinition[]; prompt: string } {
    const states = this.manager.states().filter((s) => !this.manager.isOff(s.name));
    const connected = states.filter((s) => s.status === 'connected');
    if (!connected.length) return { key: '', tools: [], prompt: '' };
    const tools: AnyToolDefinition[] = [this.describe];
    for (const state of connected) {
      for (const info of state.tools) {
        const id = `${state.name}\0${info.name}`;
        let def = this.defs.get(id);
        if (!def) {
          def = mcpToolDefinition(this.manager, info, this.hosts.get(state.name));
          if (def) this.defs.set(id, def);
        }
        if (def) tools.push(def);
      }
    }
    const prompt = mcpPromptSection(states);
    // The key also changes when a server is turned off that has no tools in the prompt.
    return { key: `${prompt}\0${tools.length}`, tools, prompt };
  }

  states(): McpServerState[] {
    return this.manager.states();
  }

  private readonly reported = new Set<string>();

  failures(): Array<{ name: string; error: string }> {
    const out: Array<{ name: string; error: string }> = [];
    for (const s of this.manager.states()) {
      const key = `${s.name}\0${s.error ?? ''}`;
      if (s.status !== 'failed' || this.reported.has(key)) continue;
      this.reported.add(key);
      out.push({ name: s.name, error: s.error ?? '?' });
    }
    return out;
  }

  close(): Promise<void> {
    return this.manager.close();
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

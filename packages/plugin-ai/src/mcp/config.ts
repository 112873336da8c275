import { z } from 'zod';

/**
 * `mcpServers` entries in the shape Claude Code and Cursor use, so users can paste what they
 * have: `{command, args, env}` (stdio) or `{url, headers}` (streamable HTTP). Our additions:
 * `disabled`, `trusted` (lets a server's readOnlyHint lower a call to L0), `timeoutMs`.
 */
const Common = {
  disabled: z.boolean().optional(),
  trusted: z.boolean().optional(),
  /** Time-out of one tool call, ms; default 120000. */
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
};

const StdioEntry = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  ...Common,
});

const HttpEntry = z.object({
  type: z.enum(['http', 'streamable-http', 'sse']).optional(),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).default({}),
  ...Common,
});

/**
 * A server name as Claude Code accepts it: letters, digits and `_ - . @ : +`. It becomes part of
 * tool names (`mcp.<server>.<tool>`) through {@link safeServerName}.
 */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@:+-]{0,63}$/;

/**
 * The name a server's steps use: every character other than letters, digits, `_` and `-` becomes
 * `_` (as Claude Code does for `mcp__<server>__<tool>`), so `my.files` is `mcp.my_files.read_file`.
 */
export function safeServerName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

export type McpServerConfig =
  | ({ name: string; label?: string; source: string; transport: 'stdio' } & z.infer<typeof StdioEntry>)
  | ({ name: string; label?: string; source: string; transport: 'http' } & z.infer<typeof HttpEntry>);

/** An entry that could not be used, with why (shown by `/mcp` and `ai mcp list`). */
export interface McpConfigProblem {
  name: string;
  source: string;
  error: string;
}

/**
 * `${VAR}` and `${VAR:-default}` in a string, from `env` (Claude Code's expansion). An unset
 * variable without a default is reported, not silently emptied.
 */
export function expandVars(text: string, env: NodeJS.ProcessEnv, missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(entry)'}: ${i.message}`)
    .join('; ');
}

/**
 * Read an `mcpServers` object (from ai.json or a project's `.mcp.json`). Never throws: entries
 * that are wrong come back as problems naming the file and the field.
 */
export function readMcpServers(
  raw: unknown,
  source: string,
  env: NodeJS.ProcessEnv,
): { servers: McpServerConfig[]; problems: McpConfigProblem[] } {
  const servers: McpServerConfig[] = [];
  const problems: McpConfigProblem[] = [];
  if (raw === undefined || raw === null) return { servers, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({ name: '*', source, error: 'mcpServers must be an object of {"<name>": {"command": …} | {"url": …}}' });
    return { servers, problems };
  }
  const used = new Set<string>();
  for (const [written, entry] of Object.entries(raw as Record<string, unknown>)) {
    if (!SERVER_NAME.test(written)) {
      problems.push({
        name: written,
        source,
        error: 'a server name uses letters, digits and "_ - . @ : +" (at most 64; it becomes part of tool names)',
      });
      continue;
    }
    // Two names that map to the same step name within one file: the later one gets a number.
    let name = safeServerName(written);
    for (let n = 2; used.has(name); n++) name = `${safeServerName(written)}_${n}`;
    used.add(name);
    const label = name !== written ? { label: written } : {};
    // `/mcp` shows the source: it says the name as written beside the step name.
    const from = name !== written ? `${source} ("${written}")` : source;
    const isHttp = !!entry && typeof entry === 'object' && 'url' in entry;
    const parsed = (isHttp ? HttpEntry : StdioEntry).safeParse(entry);
    if (!parsed.success) {
      problems.push({ name, source, error: describeIssues(parsed.error) });
      continue;
    }
    const missing = new Set<string>();
    const x = (s: string) => expandVars(s, env, missing);
    const xValues = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, x(v)]));
    const named = { name, ...label, source: from };
    let server: McpServerConfig;
    if (isHttp) {
      const e = parsed.data as z.infer<typeof HttpEntry>;
      server = { ...e, ...named, transport: 'http', url: x(e.url), headers: xValues(e.headers) };
      if (!/^https?:\/\//.test(server.url)) {
        problems.push({ name, source, error: `url must be http:// or https:// (found ${JSON.stringify(e.url)})` });
        continue;
      }
    } else {
      const e = parsed.data as z.infer<typeof StdioEntry>;
      server = {
        ...e,
        ...named,
        transport: 'stdio',
        command: x(e.command),
        args: e.args.map(x),
        env: xValues(e.env),
        ...(e.cwd ? { cwd: x(e.cwd) } : {}),
      };
    }
    if (missing.size) {
      problems.push({ name, source, error: `environment variable${missing.size > 1 ? 's' : ''} not set: ${[...missing].join(', ')}` });
      continue;
    }
    servers.push(server);
  }
  return { servers, problems };
}

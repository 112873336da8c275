import { z } from 'zod';

/** ai.json's schema (DESIGN §6): loaded when a file is checked (an ai.json exists, `ai risk`),
 * never by a start without one; `defaultConfig` (config.ts) is its parse of `{}`. */

/** Context budgets (DESIGN §6, docs/context.md), all in estimated tokens (CJK-aware, see tokens.ts). */
export const ContextBudgetsSchema = z
  .object({
    /** Hard cap for one request: every assembled model call stays under it. */
    maxRequestTokens: z.number().int().min(2000).default(16000),
    /** Cap of the conversation summary a fold writes. */
    summaryMaxTokens: z.number().int().min(50).default(800),
    /** A request past this share of the budget folds first: older results are shortened. */
    foldAtPercent: z.number().int().min(30).max(95).default(80),
    /** Still past this share after shortening: older turns are folded into the summary too. */
    summarizeAbovePercent: z.number().int().min(20).max(90).default(60),
    /** Where a fold with a summary brings the request (the headroom before the next fold). */
    foldToPercent: z.number().int().min(10).max(80).default(40),
    /** The budget of one user message, and of one round's tool results together (each result's share is fitted once, when it is added). */
    inputMaxTokens: z.number().int().min(100).default(3000),
    /**
     * Cap of memory in the system prompt: the user's and the project's AGENTS.md / CLAUDE.md and
     * what they import. 4000 holds four 4 KB files (a common CLAUDE.md size) and is a quarter of
     * the default request budget; a file past its share is cut and that is said. 0 turns memory off.
     */
    projectContextMaxTokens: z.number().int().min(0).default(4000),
    /** No longer used (the context folds at marks of `maxRequestTokens`); still accepted so an older ai.json loads. */
    toolDigestMaxTokens: z.number().int().min(50).optional(),
    toolDigestCount: z.number().int().min(0).max(10).optional(),
    recentWindowMaxTokens: z.number().int().min(100).optional(),
    recentWindowMaxMessages: z.number().int().min(2).optional(),
  })
  .strict()
  .refine((c) => c.foldToPercent < c.summarizeAbovePercent && c.summarizeAbovePercent < c.foldAtPercent, {
    message: 'foldToPercent < summarizeAbovePercent < foldAtPercent is needed (a fold must leave headroom before the next one)',
  });

/** The OS sandbox of command steps: `auto` (use it when it works, say so when it does not), `required`, `off`. */
export const SandboxModeSchema = z.enum(['auto', 'required', 'off']);

/**
 * `sandbox` in ai.json: a mode, or `{mode, allowRead, limits}`. `allowRead`: more of the home shown
 * to read-only steps (paths, `~` expanded; the secret stores stay hidden). `limits`: the resource
 * limits of read-only steps (`memoryMb`, `processes`, `cpuSeconds`; 0 = none of that kind), or
 * `false` for none. docs/security.md §4a.
 */
export const SandboxSettingsSchema = z.union(
  [
    SandboxModeSchema,
    z
      .object({
        mode: SandboxModeSchema.default('auto'),
        allowRead: z.array(z.string().regex(/^(~$|~\/|\/)/, 'an absolute path or one starting with ~/')).optional(),
        limits: z
          .union([
            z.literal(false),
            z
              .object({
                memoryMb: z.number().int().min(0).optional(),
                processes: z.number().int().min(0).optional(),
                cpuSeconds: z.number().int().min(0).optional(),
              })
              .strict(),
          ])
          .optional(),
      })
      .strict(),
  ],
  { error: 'expected "auto", "required", "off" or {"mode", "allowRead", "limits"}' },
);

/** How `ai -i` tells the terminal that it asks something or that a long turn ended. */
export const NotifyStyleSchema = z.enum(['bell', 'osc9', 'off']);

/**
 * `notify` in ai.json: `"bell"` (BEL, the default), `"osc9"` (a desktop notification where the
 * terminal supports OSC 9), `"off"`; or `{"style", "afterSeconds"}`: a turn that ran at least
 * `afterSeconds` (default 30) notifies when it ends (a question always does).
 */
export const NotifySettingsSchema = z.union(
  [
    NotifyStyleSchema,
    z
      .object({
        style: NotifyStyleSchema.optional(),
        afterSeconds: z.number({ error: 'afterSeconds must be a number of seconds (0 or more)' }).min(0).max(86400).optional(),
      })
      .strict(),
  ],
  { error: 'expected "bell", "osc9", "off" or {"style": "bell" | "osc9" | "off", "afterSeconds": <seconds>}' },
);

/** `<home>/plugin-configs/ai.json`. Every field optional; defaults below. */
const RuleSetSchema = z
  .object({ allow: z.array(z.string()).optional(), ask: z.array(z.string()).optional(), deny: z.array(z.string()).optional() })
  .strict();

/** web.search's provider (issue #35). The key is never written here: `env:NAME` names the variable holding it. */
export const WebSearchSchema = z
  .object({
    provider: z.enum(['searxng', 'brave', 'tavily'], { message: 'provider must be "searxng", "brave" or "tavily"' }),
    /** SearXNG: the instance (`http://127.0.0.1:8888`); Brave, Tavily: another endpoint (a proxy). */
    url: z
      .string()
      .refine((u) => /^https?:\/\/[^\s]+$/i.test(u) && URL.canParse(u), { message: 'url must be an http:// or https:// address' })
      .optional(),
    apiKey: z
      .string()
      .regex(/^env:[A-Za-z_][A-Za-z0-9_]*$/, {
        message: 'apiKey must be "env:NAME": the key is read from the environment variable NAME, never stored in ai.json',
      })
      .optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.provider === 'searxng' && !v.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'searxng needs "url": the address of your SearXNG instance' });
    if (v.provider !== 'searxng' && !v.apiKey)
      ctx.addIssue({
        code: 'custom',
        path: ['apiKey'],
        message: `${v.provider} needs "apiKey": "env:NAME" (the variable holding your API key)`,
      });
  });

/**
 * A check after edits (issue #46): after fs.edit / fs.write of a workspace file matching `match` (a
 * glob from the workspace root; without a `/`, of the file's name), `run` (a program and its
 * arguments, no shell) runs once per reply as a judged, sandboxed step, and its first errors join
 * that edit's result.
 */
export const CheckSchema = z
  .object({
    match: z.string().trim().min(1, { message: 'match must be a glob of the files it checks, such as "**/*.ts"' }),
    run: z
      .array(z.string())
      .min(1, { message: 'run must be the program and its arguments, such as ["npx", "tsc", "--noEmit"]' })
      .max(64)
      .refine((words) => (words[0] ?? '').trim() !== '', { message: 'run must start with a program' }),
  })
  .strict();

/** At most this many checks in one file. */
export const MAX_CHECKS = 20;
export const ChecksSchema = z.array(CheckSchema).max(MAX_CHECKS, { message: `at most ${MAX_CHECKS} checks` });

/**
 * OpenTelemetry traces of turns, model calls and steps (docs/telemetry.md): `false` keeps them off
 * even when OTEL_EXPORTER_OTLP_ENDPOINT is set; an object turns them on without it. The standard
 * OTEL_* variables win over these fields.
 */
export const TelemetrySchema = z.union(
  [
    z.literal(false),
    z
      .object({
        /** The collector's OTLP/HTTP base (`http://127.0.0.1:4318`); `/v1/traces` is added, as for OTEL_EXPORTER_OTLP_ENDPOINT. */
        endpoint: z
          .string()
          .refine((u) => /^https?:\/\/[^\s]+$/i.test(u) && URL.canParse(u), { message: 'endpoint must be an http:// or https:// address' }),
        protocol: z.enum(['http/protobuf', 'http/json'], { message: 'protocol must be "http/protobuf" or "http/json"' }).optional(),
        /** Headers sent with each export; a value `env:NAME` is read from that variable (keep tokens out of ai.json). */
        headers: z.record(z.string().min(1), z.string()).optional(),
        serviceName: z.string().min(1).optional(),
      })
      .strict(),
  ],
  { error: 'expected false or {"endpoint", "protocol"?, "headers"?, "serviceName"?}' },
);

export const AiConfigSchema = z
  .object({
    /** Commands the built-in policy does not know (`"terraform"`, `"git lg"`, `"./gradlew"`): they
     * become L1 (asked, with 'allow for this session') instead of refused. Other rules still apply. */
    allowedPrograms: z.array(z.string().min(1)).optional(),
    /** The original SlothTool's setting: plugins whose plugin.run steps need no question (an allow rule `plugin.run(<name>)` each). */
    trustedPlugins: z.array(z.string().regex(/^[\w@./-]+$/)).optional(),
    allowNetwork: z.boolean().default(false),
    allowWrite: z.boolean().default(false),
    allowSudo: z.boolean().default(false),
    /** http.get may reach loopback/private/link-local hosts: true for all, or a list of `host` / `host:port`. */
    allowPrivateNetwork: z.union([z.boolean(), z.array(z.string().min(1))]).default(false),
    defaultMode: z.enum(['low', 'high']).default('low'),
    defaultProfile: z.string().min(1).nullable().default(null),
    maxAutoStepsPerTurn: z.number().int().min(1).max(50).default(3),
    /** Seconds a step's question waits before the step is declined (off when absent). */
    confirmTimeoutSec: z.number().int().min(1).max(86400).optional(),
    /** Bytes of each step's stdout and stderr that `ai -p --json` carries at the head and again
     * at the tail (the rest is counted in `omittedBytes`). */
    jsonOutputBytes: z.number().int().min(0).default(65536),
    /** The OS sandbox of command steps: a mode (`auto`, `required`, `off`) or `{mode, allowRead, limits}` (SandboxSettingsSchema). */
    sandbox: SandboxSettingsSchema.default('auto'),
    context: ContextBudgetsSchema.default(() => ContextBudgetsSchema.parse({})),
    /** Permission rules (`exec(git log *)`, `fs.edit(src/**)`, `http.get(domain:x)`, `mcp.github.*`): deny > ask > allow > the rules' level. */
    permissions: RuleSetSchema.optional(),
    /** Rules the user gave for one project folder (its absolute path), kept here rather than in the repository. */
    projectPermissions: z.record(z.string(), RuleSetSchema).optional(),
    /** MCP servers in Claude Code's shape (`{"name": {command, args, env} | {url, headers}}`);
     * each entry is checked by mcp/config.ts, which reports a bad one by name without failing the rest. */
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    /** Seconds a turn's first model call waits for MCP servers still starting (they never delay the prompt). */
    mcpStartWaitSec: z.number().min(0).max(120).default(5),
    /** Hooks in Claude Code's format (`{"PreToolUse": [{matcher, hooks: [{type: "command", command}]}]}`), checked by extensions/hooks.ts. */
    hooks: z.record(z.string(), z.unknown()).optional(),
    /** Images attached to a message (`--image`, `@shot.png`): the largest file accepted. */
    images: z
      .object({
        maxBytes: z
          .number()
          .int()
          .min(1024)
          .max(100 * 1024 * 1024)
          .default(10 * 1024 * 1024),
      })
      .strict()
      .default({ maxBytes: 10 * 1024 * 1024 }),
    /** Sub-agents (`agent.run`): how many run at once, and each one's step limit per task. */
    agents: z
      .object({
        maxParallel: z.number().int().min(1).max(8).default(3),
        maxSteps: z.number().int().min(1).max(50).default(10),
      })
      .strict()
      .default({ maxParallel: 3, maxSteps: 10 }),
    /** Checks after edits: `[{"match": "src/*.ts", "run": ["npx", "tsc", "--noEmit"]}]` (CheckSchema). */
    checks: ChecksSchema.optional(),
    /** web.search's provider: `{"provider": "searxng" | "brave" | "tavily", "url"?, "apiKey"?: "env:NAME"}`. */
    webSearch: WebSearchSchema.optional(),
    /** `ai -i` notifications (a question opens, a long turn ends): NotifySettingsSchema. */
    notify: NotifySettingsSchema.default('bell'),
    /** OpenTelemetry traces (TelemetrySchema); off unless this or OTEL_EXPORTER_OTLP_ENDPOINT is set. */
    telemetry: TelemetrySchema.optional(),
    /** Optional prices for `/cost` (llm-base reports tokens, not money). */
    pricing: z
      .object({
        currency: z.string().min(1).default('USD'),
        inputPerMillion: z.number().min(0),
        /** Price of input tokens served from the provider's cache (default: the input price). */
        cachedInputPerMillion: z.number().min(0).optional(),
        outputPerMillion: z.number().min(0),
      })
      .strict()
      .optional(),
  })
  .strict();

export type AiConfig = z.infer<typeof AiConfigSchema>;
export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;
export type TelemetryConfig = z.infer<typeof TelemetrySchema>;
export type SandboxMode = z.infer<typeof SandboxModeSchema>;
export type NotifySettingsConfig = z.infer<typeof NotifySettingsSchema>;
export type ContextBudgets = z.infer<typeof ContextBudgetsSchema>;

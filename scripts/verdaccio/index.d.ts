/** A running verdaccio started by {@link startRegistry}. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  /** The server's own pid (node running verdaccio's bin, not npx). */
  pid: number;
  /** Folder holding config.yaml, storage/ and htpasswd. */
  dir: string;
  configFile: string;
  /** `.npmrc` lines routing the scope to this registry, with a token npm accepts for publishing. */
  npmrcLines(): string[];
  /** What `mirror` put in storage, when it was asked for. */
  mirrored?: { packages: number; versions: number; skippedOptional: string[] };
  /** The last 20 kB of the server's output, for diagnostics. */
  output(): string;
  /** SIGTERM, then SIGKILL after 5 s; removes `dir` when it was created by startRegistry. */
  stop(): Promise<void>;
}

export interface StartRegistryOptions {
  /** Folder for config and storage; default a new temp folder that stop() removes. */
  dir?: string;
  /** Scope open for publishing, default '@holic512'. */
  scope?: string;
  /** Bound on waiting for `/-/ping`, default 20000 ms. */
  readyTimeoutMs?: number;
  /** Also serve the third-party packages these workspace folders ('packages/plugin-ai', ...)
   * need, at the versions package-lock.json locked, from the npm cache (default this machine's). */
  mirror?: { roots: string[]; cache?: string };
}

export function startRegistry(options?: StartRegistryOptions): Promise<LocalRegistry>;
/** `npm config get cache` of this machine. */
export function machineNpmCache(): string;
/** The .npmrc text of a sandboxed npm user of a mirroring local registry: everything from it,
 * `cache` as the npm cache, a refusing proxy in place of the internet. */
export function sandboxNpmrc(options: { registry: LocalRegistry; cache: string }): Promise<string>;
/** `env` without npm_* / INIT_CWD variables inherited from an outer npm run. */
export function cleanEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function freePort(): Promise<number>;
export const SCOPE: string;
export const FAKE_TOKEN: string;

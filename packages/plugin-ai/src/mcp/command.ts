import * as fs from 'fs';
import * as path from 'path';
import { aiPaths, slothtoolHome } from '../home';
import { t, type Lang } from '../i18n';
import { readMcpServers, SERVER_NAME } from './config';
import { McpManager } from './manager';
import { readObject, write } from '../sessions/permissions-store';

/**
 * `slothtool ai mcp list | add | remove | test`: manage the MCP servers of
 * `~/.slothtool/plugin-configs/ai.json` (`mcpServers`, Claude Code's shape) and check one for real.
 *
 *   ai mcp list
 *   ai mcp add <name> [--env K=V]... -- <command> [args...]
 *   ai mcp add <name> --url <url> [--header "K: V"]...
 *   ai mcp remove <name>
 *   ai mcp test <name>
 */
export interface McpIo {
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

type Json = Record<string, unknown>;

function pairs(list: string[], sep: string, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const i = item.indexOf(sep);
    if (i <= 0) throw new Error(`${what} "${item}" should look like KEY${sep}VALUE`);
    out[item.slice(0, i).trim()] = item.slice(i + sep.length).trim();
  }
  return out;
}

/** Parse `add`'s arguments into an `mcpServers` entry. Pure; throws Error with what is wrong. */
export function parseAdd(argv: string[]): { name: string; entry: Json } {
  const [name, ...rest] = argv;
  if (!name || !SERVER_NAME.test(name)) throw new Error('a server name (letters, digits and "_ - . @ : +") must come first');
  const env: string[] = [];
  const headers: string[] = [];
  let url: string | undefined;
  let command: string[] | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const next = (): string => {
      const v = rest[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--') {
      command = rest.slice(i + 1);
      break;
    } else if (a === '--env' || a === '-e') env.push(next());
    else if (a === '--url') url = next();
    else if (a === '--header' || a === '-H') headers.push(next());
    else throw new Error(`unknown option ${a}`);
  }
  if (url && command) throw new Error('give either --url or -- <command>, not both');
  if (url) return { name, entry: { type: 'http', url, ...(headers.length ? { headers: pairs(headers, ':', 'header') } : {}) } };
  if (!command?.length) throw new Error('give the server: --url <url>, or -- <command> [args...]');
  return { name, entry: { command: command[0], args: command.slice(1), ...(env.length ? { env: pairs(env, '=', '--env') } : {}) } };
}

export async function runMcpCommand(argv: string[], lang: Lang, io: McpIo = {}): Promise<number> {
  const out = io.stdout ?? process.stdout;
  const err = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  const file = aiPaths(slothtoolHome(env)).config;
  const say = (line: string) => void out.write(line + '\n');
  const fail = (line: string, code = 2) => {
    err.write(line + '\n');
    return code;
  };
  const [sub, ...rest] = argv;
  let config: Json;
  try {
    config = readObject(file);
  } catch (e) {
    return fail(t(lang, 'mcpConfigBroken', { file, detail: (e as Error).message }));
  }
  const servers = (config.mcpServers && typeof config.mcpServers === 'object' ? config.mcpServers : {}) as Json;
  switch (sub) {
    case 'list':
    case undefined: {
      const { servers: ok, problems } = readMcpServers(servers, file, env);
      if (!ok.length && !problems.length) say(t(lang, 'mcpNone', { file }));
      for (const s of ok)
        say(
          `${s.name}  ${s.transport === 'http' ? s.url : [s.command, ...s.args].join(' ')}${s.disabled ? `  (${t(lang, 'mcpDisabled')})` : ''}${s.trusted ? `  (${t(lang, 'mcpTrusted')})` : ''}`,
        );
      for (const p of problems) say(`${p.name}  ✗ ${p.error}`);
      return 0;
    }
    case 'add': {
      let added: { name: string; entry: Json };
      try {
        added = parseAdd(rest);
      } catch (e) {
        return fail(`${t(lang, 'mcpAddUsage')}\n${(e as Error).message}`);
      }
      const check = readMcpServers({ [added.name]: added.entry }, file, env);
      if (check.problems.length) return fail(check.problems[0].error);
      const existed = added.name in servers;
      write(file, { ...config, mcpServers: { ...servers, [added.name]: added.entry } });
      say(t(lang, existed ? 'mcpReplaced' : 'mcpAdded', { name: added.name, file }));
      return 0;
    }
    case 'remove': {
      const name = rest[0];
      if (!name || !(name in servers)) return fail(t(lang, 'mcpUnknown', { name: String(name ?? ''), file }));
      const next = { ...servers };
      delete next[name];
      write(file, { ...config, mcpServers: next });
      say(t(lang, 'mcpRemoved', { name, file }));
      return 0;
    }
    case 'test': {
      const name = rest[0];
      const { servers: ok, problems } = readMcpServers(name && name in servers ? { [name]: servers[name] } : {}, file, env);
      if (problems.length) return fail(`${name}: ${problems[0].error}`);
      if (!ok.length) return fail(t(lang, 'mcpUnknown', { name: String(name ?? ''), file }));
      const manager = new McpManager([{ ...ok[0], disabled: false }], { cwd: io.cwd ?? process.cwd() });
      manager.start();
      const state = await manager.ready(ok[0].name);
      await manager.close();
      if (state?.status !== 'connected') {
        return fail(
          t(lang, 'mcpTestFailed', { name: ok[0].name, detail: state?.error ?? '?' }) + (state?.stderrTail ? `\n${state.stderrTail}` : ''),
          1,
        );
      }
      say(t(lang, 'mcpTestOk', { name: ok[0].name, n: state.tools.length }));
      for (const tool of state.tools) say(`  ${tool.name}${tool.description ? ` — ${tool.description.split('\n')[0].slice(0, 100)}` : ''}`);
      return 0;
    }
    default:
      return fail(t(lang, 'mcpUsage'));
  }
}

/**
 * `/mcp`: the session's MCP servers with their state, tool count, trust and last error;
 * `/mcp <server>` lists a server's tools; `/mcp restart <server>` closes it and starts it again;
 * `/mcp disable|enable <server>` takes its tools out of (and back into) this session.
 */
import type { Lang } from '../i18n';
import type { McpServerState } from '../mcp/manager';
import type { McpSession } from '../mcp/session';
import type { Theme } from './theme';
import { t } from '../i18n';

function stateLine(s: McpServerState, theme: Theme, lang: Lang, off = false): string[] {
  const status =
    s.status === 'connected'
      ? theme.green(t(lang, 'mcp_connected', { n: s.tools.length }))
      : s.status === 'failed'
        ? theme.red(t(lang, 'mcp_failed', { error: s.error ?? '?' }))
        : theme.dim(t(lang, `mcp_${s.status}`));
  const lines = [
    `  ${theme.bold(s.name)}  ${theme.dim(`${s.transport} · ${s.source}`)}  ${status}${off ? theme.yellow(`  (${t(lang, 'mcpOffTag')})`) : ''}`,
  ];
  if (s.trusted) lines.push(theme.dim(`      ${t(lang, 'mcpScreenTrusted')}`));
  if (s.status === 'connected' && s.error) lines.push(theme.yellow(`      ${t(lang, 'mcpLastError', { error: s.error })}`));
  if (s.status === 'failed' && s.stderrTail)
    for (const l of s.stderrTail.split('\n').slice(-3)) lines.push(theme.dim(`      ${l.slice(0, 200)}`));
  return lines;
}

/** The text of `/mcp [server | restart server]`; restarting waits for the new start to finish. */
export async function mcpCommand(
  arg: string,
  mcp: McpSession | undefined,
  theme: Theme,
  lang: Lang,
  say: (text: string) => void,
): Promise<string> {
  const states = mcp?.states() ?? [];
  if (!mcp || !states.length) return t(lang, 'mcpScreenNone');
  const toggle = /^(enable|disable)\s+(\S+)$/.exec(arg.trim());
  if (toggle) {
    const on = toggle[1] === 'enable';
    if (!mcp.manager.setEnabled(toggle[2], on)) return theme.yellow(t(lang, 'mcpUnknownServer', { name: toggle[2] }));
    return t(lang, on ? 'mcpEnabled' : 'mcpDisabledNow', { name: toggle[2] });
  }
  const restart = /^restart\s+(\S+)$/.exec(arg.trim());
  if (restart) {
    const name = restart[1];
    if (!states.some((s) => s.name === name)) return theme.yellow(t(lang, 'mcpUnknownServer', { name }));
    say(theme.dim(t(lang, 'mcpRestarting', { name })));
    const state = await mcp.manager.restart(name);
    return state ? stateLine(state, theme, lang).join('\n') : theme.yellow(t(lang, 'mcpUnknownServer', { name }));
  }
  if (arg.trim()) {
    const s = states.find((x) => x.name === arg.trim());
    if (!s) return theme.yellow(t(lang, 'mcpUnknownServer', { name: arg.trim() }));
    if (!s.tools.length) return t(lang, 'mcpNoTools', { name: s.name, status: s.status });
    const lines = [t(lang, 'mcpToolsHead', { name: s.name })];
    for (const tool of s.tools) {
      const hint = tool.annotations.destructiveHint
        ? ` (${t(lang, 'mcpDestructive')})`
        : tool.annotations.readOnlyHint
          ? ` (${t(lang, 'mcpReadOnly')})`
          : '';
      lines.push(`  ${theme.cyan(tool.name)}${theme.dim(hint)}  ${(tool.description.split('\n')[0] ?? '').slice(0, 100)}`);
    }
    return lines.join('\n');
  }
  return [
    t(lang, 'mcpHead'),
    ...states.flatMap((s) => stateLine(s, theme, lang, mcp.manager.isOff(s.name))),
    theme.dim(t(lang, 'mcpScreenUsage')),
  ].join('\n');
}

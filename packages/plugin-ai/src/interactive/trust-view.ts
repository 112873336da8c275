/**
 * `/trust`: what this folder brings that runs code or changes policy (`.mcp.json`,
 * `.slothtool/settings.json`, project skills) and whether it is trusted; `/trust yes` trusts it as
 * it is now (asked again when those files change), `/trust no` forgets it.
 */
import type { Lang } from '../i18n';
import { projectExtras, TrustStore } from '../extensions/trust';
import { findGitRoot } from '../project-context';
import { ts } from './strings';

export function trustCommand(arg: string, cwd: string, trustFile: string, lang: Lang): string {
  const workspace = findGitRoot(cwd) ?? cwd;
  const extras = projectExtras(workspace);
  const store = new TrustStore(trustFile);
  if (!extras.files.length) return ts(lang, 'trustNothing', { folder: workspace });
  const files = extras.files.map((f) => `  ${f.rel}`).join('\n');
  if (arg === 'yes') {
    store.trust(extras);
    return `${ts(lang, 'trustDone', { folder: workspace })}\n${files}`;
  }
  if (arg === 'no') {
    store.revoke(workspace);
    return ts(lang, 'trustRevoked', { folder: workspace });
  }
  return `${ts(lang, `trust_${store.state(extras)}` as 'trust_trusted', { folder: workspace })}\n${files}\n${ts(lang, 'trustUsage')}`;
}

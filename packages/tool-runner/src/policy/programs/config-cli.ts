/**
 * Tools' own commands that change their configuration: what names registries, where packages
 * go, or programs they run is a write of a tool config (runs-later.ts), refused like writing the
 * file itself (`npm config set registry …` is `~/.npmrc`, `pip config set` is `pip.conf`,
 * `go env -w` is go's env file, `gh alias set` runs shell commands later).
 */
import { operands } from '../args';
import { finding, type Finding } from '../finding';

/** npm's and pnpm's keys that name a registry, where packages and programs go, or what runs. */
const NPM_KEYS =
  /^(registry|@[^:]+:registry|.*:registry|prefix|global-dir|global-bin-dir|store-dir|globalconfig|userconfig|proxy|https-proxy|noproxy|strict-ssl|ca|cafile|cert|key|init-module|ignore-scripts|pnpmfile|global-pnpmfile|enable-pre-post-scripts|side-effects-cache)$/i;

/** gh settings that name a program it runs. */
const GH_KEYS = /^(editor|browser|pager|http_unix_socket)$/i;

const toolConfig = (what: string): Finding => finding('write.persistence', 'L2', { a: what }, { msg: 'write.persistence.tool-command' });

/** The finding of a tool's configuration command, or undefined when `args` is none. */
export function judgeConfigCli(name: string, args: readonly string[]): Finding[] | undefined {
  const ops = operands(args);
  const [sub = '', action = ''] = ops;
  const said = `${name} ${ops.slice(0, 3).join(' ')}`.trim();
  switch (name) {
    case 'npm':
    case 'pnpm': {
      if (sub !== 'config' && sub !== 'c') return undefined;
      if (!['set', 'delete', 'rm'].includes(action)) return undefined;
      return ops.slice(2).some((k) => NPM_KEYS.test(k.split('=')[0])) ? [toolConfig(said)] : undefined;
    }
    case 'yarn':
      // yarnPath, plugins, npmRegistryServer, …: every key of .yarnrc(.yml) decides what yarn runs or fetches.
      return sub === 'config' && ['set', 'unset', 'delete'].includes(action) ? [toolConfig(said)] : undefined;
    case 'pip':
    case 'pip3':
      return sub === 'config' && ['set', 'unset', 'edit'].includes(action) ? [toolConfig(said)] : undefined;
    case 'conda':
      return sub === 'config' && args.some((a) => ['--set', '--add', '--append', '--prepend', '--remove', '--remove-key'].includes(a))
        ? [toolConfig(`${name} config ${args.slice(1).join(' ')}`)]
        : undefined;
    case 'gem':
      return sub === 'sources' && args.some((a) => ['--add', '-a', '--remove', '-r'].includes(a))
        ? [toolConfig(`${name} sources ${args.slice(1).join(' ')}`)]
        : undefined;
    case 'go':
      return sub === 'env' && args.some((a) => /^--?[wu]$/.test(a)) ? [toolConfig(`${name} ${args.join(' ')}`)] : undefined;
    case 'poetry':
      return sub === 'config' && /^(repositories|certificates|http-basic|pypi-token)\./.test(action) && ops.length > 2
        ? [toolConfig(said)]
        : undefined;
    case 'gh':
      if (sub === 'alias' && ['set', 'import'].includes(action)) return [toolConfig(said)];
      return sub === 'config' && action === 'set' && GH_KEYS.test(ops[2] ?? '') ? [toolConfig(said)] : undefined;
    default:
      return undefined;
  }
}

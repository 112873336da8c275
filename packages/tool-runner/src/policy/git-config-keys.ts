/** Which git configuration keys a step may set for one command (`git -c`, `git clone -c`): only ones that change how output looks. */
import { finding, type Finding } from './finding';

/** `git -c` keys that only change how output looks. Every other key is judged L2. */
export const SAFE_CONFIG_KEY =
  /^(color\.[a-z.]+|advice\.[a-z]+|log\.(date|decorate|abbrevcommit|showroot|follow)|column\.ui|diff\.(renames|noprefix|mnemonicprefix|relative|context|interhunkcontext|algorithm|indentheuristic|statgraphwidth|colormoved)|format\.pretty|grep\.(linenumber|patterntype|extendedregexp|fullname|column)|status\.(short|branch|showuntrackedfiles)|i18n\.logoutputencoding|blame\.date|user\.(name|email)|init\.defaultbranch)$/i;

/** A `key=value` given to `git -c` or `git clone -c`: L2 unless the key only changes how output looks (core.sshCommand, core.hooksPath, … run programs). */
export function gitConfigFindings(kv: string, said: string): Finding[] {
  const key = kv.split('=')[0];
  return SAFE_CONFIG_KEY.test(key) ? [] : [finding('git.config', 'L2', { a: said })];
}

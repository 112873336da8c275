/** Colours of the screen. Off when NO_COLOR is set (and not empty), when TERM is dumb, or
 * when the output is not a terminal; FORCE_COLOR (not "0") turns them on. */
export interface Theme {
  enabled: boolean;
  dim(s: string): string;
  bold(s: string): string;
  italic(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
  gray(s: string): string;
  inverse(s: string): string;
}

export function colorEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

export function createTheme(enabled: boolean): Theme {
  const wrap = (open: number, close: number) => (s: string) => (enabled && s ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return {
    enabled,
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    italic: wrap(3, 23),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    blue: wrap(34, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
    gray: wrap(90, 39),
    inverse: wrap(7, 27),
  };
}

/** Remove SGR (colour) sequences only. */
export function stripColor(text: string): string {
  // eslint-disable-next-line no-control-regex -- an SGR sequence starts with ESC
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

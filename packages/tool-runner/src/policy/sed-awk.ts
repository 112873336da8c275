import { isLong } from './args';
import { finding, type Finding } from './finding';

/** A cursor over a sed script: the pieces of its grammar that the judgement needs to step over. */
class SedScanner {
  i = 0;
  readonly n: number;

  constructor(readonly script: string) {
    this.n = script.length;
  }

  get here(): string | undefined {
    return this.script[this.i];
  }

  skipSpace(): void {
    while (this.i < this.n && /[\s;]/.test(this.script[this.i])) this.i++;
  }

  skipBlanks(): void {
    while (this.i < this.n && this.script[this.i] === ' ') this.i++;
  }

  /** Past the next unescaped `delim` on this line; false when the line ends first. */
  readDelimited(delim: string): boolean {
    const { script, n } = this;
    while (this.i < n && script[this.i] !== delim) {
      if (script[this.i] === '\\') this.i++;
      else if (script[this.i] === '\n') return false;
      this.i++;
    }
    if (this.i >= n) return false;
    this.i++;
    return true;
  }

  /** Past one address (a line number, `$`, `/re/` or `\cREc` with its flags), if one is here. */
  readAddress(): boolean {
    const { script, n } = this;
    if (/[0-9~+]/.test(script[this.i] ?? '')) {
      while (this.i < n && /[0-9~+]/.test(script[this.i])) this.i++;
    } else if (script[this.i] === '$') {
      this.i++;
    } else if (script[this.i] === '/') {
      this.i++;
      if (!this.readDelimited('/')) return false;
      while (this.i < n && /[IM]/.test(script[this.i])) this.i++;
    } else if (script[this.i] === '\\') {
      const d = script[this.i + 1];
      this.i += 2;
      if (!d || !this.readDelimited(d)) return false;
      while (this.i < n && /[IM]/.test(script[this.i])) this.i++;
    }
    return true;
  }

  /** Past one address or an address range, then the blanks and `!` before the command. */
  readAddresses(): boolean {
    if (!this.readAddress()) return false;
    this.skipBlanks();
    if (this.here === ',') {
      this.i++;
      this.skipBlanks();
      if (!this.readAddress()) return false;
    }
    while (this.i < this.n && /[\s!]/.test(this.script[this.i]) && this.script[this.i] !== '\n') this.i++;
    return true;
  }

  /** The rest of the line from here (a command's file name or shell command). */
  restOfLine(): string {
    return this.script.slice(this.i).split('\n')[0];
  }

  toLineEnd(): void {
    while (this.i < this.n && this.script[this.i] !== '\n') this.i++;
  }

  toCommandEnd(): void {
    while (this.i < this.n && this.script[this.i] !== '\n' && this.script[this.i] !== ';' && this.script[this.i] !== '}') this.i++;
  }
}

/** After `s`: its two parts and its flags; `e` runs the result, `w` writes a file. False when it cannot be parsed. */
function sedSubstitute(sc: SedScanner, out: Finding[]): boolean {
  const d = sc.script[sc.i++];
  if (!d || d === '\n' || d === '\\') return false;
  if (!sc.readDelimited(d) || !sc.readDelimited(d)) return false;
  const flagsStart = sc.i;
  while (sc.i < sc.n && /[gpiImMe0-9w]/.test(sc.script[sc.i])) {
    if (sc.script[sc.i] === 'w') break;
    sc.i++;
  }
  const flags = sc.script.slice(flagsStart, sc.i);
  if (flags.includes('e')) out.push(finding('sed.exec', 'L2', { a: `s${d}…${d}…${d}${flags}` }));
  if (sc.here === 'w') {
    out.push(finding('sed.write', 'L2', { a: `s${d}…${d}…${d}${flags}w` }));
    sc.toLineEnd();
  }
  return true;
}

/** One sed command `cmd` (the scanner just past it): what it writes or runs goes into `out`. False when it cannot be parsed. */
function sedCommand(cmd: string, sc: SedScanner, out: Finding[]): boolean {
  switch (cmd) {
    case '{':
    case '}':
      return true;
    case 's':
      return sedSubstitute(sc, out);
    case 'y': {
      const d = sc.script[sc.i++];
      return Boolean(d && sc.readDelimited(d) && sc.readDelimited(d));
    }
    case 'w':
    case 'W':
    case 'e':
      out.push(finding(cmd === 'e' ? 'sed.exec' : 'sed.write', 'L2', { a: cmd + sc.restOfLine() }));
      sc.toLineEnd();
      return true;
    case 'a':
    case 'i':
    case 'c':
    case 'r':
    case 'R':
      sc.toLineEnd();
      return true;
    case 'b':
    case 't':
    case 'T':
    case ':':
    case 'l':
    case 'L':
    case 'q':
    case 'Q':
      sc.toCommandEnd();
      return true;
    default:
      return '=dDgGhHnNpPxzF'.includes(cmd);
  }
}

/**
 * Find the commands of a sed script that write files (`w`, `W`, `s///w`) or run commands
 * (`e`, `s///e`). Returns null when the script cannot be parsed (judged L2 by the caller).
 */
export function sedScriptFindings(script: string): Finding[] | null {
  const out: Finding[] = [];
  const sc = new SedScanner(script);
  while (true) {
    sc.skipSpace();
    if (sc.i >= sc.n) break;
    if (sc.here === '#') {
      sc.toLineEnd();
      continue;
    }
    if (!sc.readAddresses()) return null;
    const cmd = sc.script[sc.i++];
    if (cmd === undefined || !sedCommand(cmd, sc, out)) return null;
  }
  return out;
}

/** Judge `sed <args>`: in-place editing, script files and the script's own w/e commands. */
export function judgeSed(args: readonly string[]): Finding[] {
  const out: Finding[] = [];
  const scripts: string[] = [];
  let sawScriptOption = false;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (a === '-e' || a === '--expression') {
      scripts.push(args[++i] ?? '');
      sawScriptOption = true;
    } else if (a.startsWith('--expression=')) {
      scripts.push(a.slice('--expression='.length));
      sawScriptOption = true;
    } else if (a === '-f' || a === '--file' || a.startsWith('--file=')) {
      out.push(finding('arg.script_file', 'L2', { p: 'sed', a: a === '-f' || a === '--file' ? (args[++i] ?? '') : a }));
      sawScriptOption = true;
    } else if (isLong(a, '--in-place') || a === '-I') {
      out.push(finding('sed.inplace', 'L2', { a }));
    } else if (a.startsWith('--')) {
      if (
        ![
          '--quiet',
          '--silent',
          '--regexp-extended',
          '--separate',
          '--unbuffered',
          '--null-data',
          '--posix',
          '--debug',
          '--sandbox',
          '--follow-symlinks',
          '--zero-terminated',
        ].includes(a) &&
        !a.startsWith('--line-length=')
      ) {
        out.push(finding('arg.unparsed', 'L2', { p: 'sed', a }));
      }
    } else if (a.startsWith('-') && a.length > 1) {
      const letters = a.slice(1);
      for (let k = 0; k < letters.length; k++) {
        const l = letters[k];
        if (l === 'i') {
          out.push(finding('sed.inplace', 'L2', { a }));
          break;
        } else if (l === 'e' || l === 'f') {
          const value = letters.slice(k + 1) || (args[++i] ?? '');
          if (l === 'e') scripts.push(value);
          else out.push(finding('arg.script_file', 'L2', { p: 'sed', a: value }));
          sawScriptOption = true;
          break;
        } else if (l === 'l') {
          if (!letters.slice(k + 1)) i++;
          break;
        } else if (!'nErsuzb'.includes(l)) {
          out.push(finding('arg.unparsed', 'L2', { p: 'sed', a }));
          break;
        }
      }
    } else {
      positional.push(a);
    }
  }
  if (!sawScriptOption && positional.length > 0) scripts.push(positional[0]);
  for (const s of scripts) {
    const found = sedScriptFindings(s);
    if (found === null) out.push(finding('sed.unparsed', 'L2', { a: s.length > 60 ? s.slice(0, 57) + '...' : s }));
    else out.push(...found);
  }
  return out;
}

/** Strip awk string literals and regex literals so `|` and `>` inside them do not count. */
function stripAwkLiterals(prog: string): string {
  // Each replace only when its literal's delimiter is there at all (most programs have neither).
  const noStrings = prog.includes('"') ? prog.replace(/"(?:[^"\\\n]|\\.)*"/g, '""') : prog;
  return noStrings.includes('/') ? noStrings.replace(/(^|[(~,!&|{};\s])\/(?:[^/\\\n]|\\.)+\//g, '$1//') : noStrings;
}

/** Judge `awk <args>`: program files, extensions, system(), pipes and output redirection. */
export function judgeAwk(name: string, args: readonly string[]): Finding[] {
  const out: Finding[] = [];
  let program: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      if (program === undefined) program = args[i + 1];
      break;
    }
    if (a === '-F' || a === '-v' || a === '--field-separator' || a === '--assign') {
      i++;
    } else if ((a.startsWith('-F') || a.startsWith('-v')) && a.length > 2) {
      // -F: / -vx=1
    } else if (a.startsWith('--field-separator=') || a.startsWith('--assign=')) {
      // ok
    } else if (a === '-e' || a === '--source') {
      program = (program ?? '') + '\n' + (args[++i] ?? '');
    } else if (a === '-f' || a === '--file' || a.startsWith('--file=') || a === '-E' || a === '--exec') {
      out.push(finding('arg.script_file', 'L2', { p: name, a: args[i + 1] ?? a }));
      i++;
    } else if (
      [
        '--posix',
        '--traditional',
        '--re-interval',
        '--characters-as-bytes',
        '--sandbox',
        '-S',
        '-b',
        '-P',
        '-c',
        '-r',
        '--use-lc-numeric',
        '-N',
        '--lint',
        '-L',
        '--bignum',
        '-M',
      ].includes(a)
    ) {
      // harmless
    } else if (a.startsWith('-') && a !== '-') {
      // -l/--load, -i/--include, -o/--pretty-print, -p/--profile, -d/--dump-variables, -D/--debug and the unknown
      out.push(finding('arg.unparsed', 'L2', { p: name, a }));
    } else if (program === undefined) {
      program = a;
    }
  }
  if (program !== undefined && !args.includes('--sandbox')) {
    const code = stripAwkLiterals(program);
    const sys = code.match(/\bsystem\s*\(/) ?? code.match(/[^|]\|(?!\|)|^\|(?!\|)/) ?? code.match(/\|&/);
    if (sys) out.push(finding('awk.exec', 'L2', { a: sys[0].trim() || '|' }));
    const redirect = code.match(/\b(printf?|print)\b[^;{}\n]*>/);
    if (redirect) out.push(finding('awk.write', 'L2', { a: '>' }));
    if (/@load|@include/.test(code)) out.push(finding('awk.exec', 'L2', { a: '@load' }));
  }
  return out;
}

import { isLong } from './args';
import { finding, type Finding } from './finding';

/**
 * Find the commands of a sed script that write files (`w`, `W`, `s///w`) or run commands
 * (`e`, `s///e`). Returns null when the script cannot be parsed (judged L2 by the caller).
 */
export function sedScriptFindings(script: string): Finding[] | null {
  const out: Finding[] = [];
  let i = 0;
  const n = script.length;
  const skipSpace = (): void => {
    while (i < n && /[\s;]/.test(script[i])) i++;
  };
  const readDelimited = (delim: string): boolean => {
    while (i < n && script[i] !== delim) {
      if (script[i] === '\\') i++;
      else if (script[i] === '\n') return false;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const readAddress = (): boolean => {
    if (/[0-9~+]/.test(script[i] ?? '')) {
      while (i < n && /[0-9~+]/.test(script[i])) i++;
    } else if (script[i] === '$') {
      i++;
    } else if (script[i] === '/') {
      i++;
      if (!readDelimited('/')) return false;
      while (i < n && /[IM]/.test(script[i])) i++;
    } else if (script[i] === '\\') {
      const d = script[i + 1];
      i += 2;
      if (!d || !readDelimited(d)) return false;
      while (i < n && /[IM]/.test(script[i])) i++;
    }
    return true;
  };
  const toLineEnd = (): void => {
    while (i < n && script[i] !== '\n') i++;
  };
  const toCommandEnd = (): void => {
    while (i < n && script[i] !== '\n' && script[i] !== ';' && script[i] !== '}') i++;
  };
  while (true) {
    skipSpace();
    if (i >= n) break;
    if (script[i] === '#') {
      toLineEnd();
      continue;
    }
    if (!readAddress()) return null;
    while (i < n && script[i] === ' ') i++;
    if (script[i] === ',') {
      i++;
      while (i < n && script[i] === ' ') i++;
      if (!readAddress()) return null;
    }
    while (i < n && /[\s!]/.test(script[i]) && script[i] !== '\n') i++;
    const cmd = script[i++];
    if (cmd === undefined) return null;
    switch (cmd) {
      case '{':
      case '}':
        break;
      case 's': {
        const d = script[i++];
        if (!d || d === '\n' || d === '\\') return null;
        if (!readDelimited(d) || !readDelimited(d)) return null;
        const flagsStart = i;
        while (i < n && /[gpiImMe0-9w]/.test(script[i])) {
          if (script[i] === 'w') break;
          i++;
        }
        const flags = script.slice(flagsStart, i);
        if (flags.includes('e')) out.push(finding('sed.exec', 'L2', { a: `s${d}…${d}…${d}${flags}` }));
        if (script[i] === 'w') {
          out.push(finding('sed.write', 'L2', { a: `s${d}…${d}…${d}${flags}w` }));
          toLineEnd();
        }
        break;
      }
      case 'y': {
        const d = script[i++];
        if (!d || !readDelimited(d) || !readDelimited(d)) return null;
        break;
      }
      case 'w':
      case 'W':
        out.push(finding('sed.write', 'L2', { a: cmd + script.slice(i).split('\n')[0] }));
        toLineEnd();
        break;
      case 'e':
        out.push(finding('sed.exec', 'L2', { a: 'e' + script.slice(i).split('\n')[0] }));
        toLineEnd();
        break;
      case 'a':
      case 'i':
      case 'c':
      case 'r':
      case 'R':
        toLineEnd();
        break;
      case 'b':
      case 't':
      case 'T':
      case ':':
      case 'l':
      case 'L':
      case 'q':
      case 'Q':
        toCommandEnd();
        break;
      default:
        if (!'=dDgGhHnNpPxzF'.includes(cmd)) return null;
    }
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

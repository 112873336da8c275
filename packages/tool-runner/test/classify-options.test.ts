import { compiled, opts, resolveOptions, type ProgramOptions } from '../src/policy/options/resolve';
import { OPTION_TABLES, resolveFor, tarOldStyle } from '../src/policy/options';

// The resolver parses argv the way getopt_long (and git's parse-options) does; these cases pin
// each parsing rule on a small table, then on the real tables.
const table: ProgramOptions = {
  opts: opts(
    '-o --output = write',
    '-c --check =?',
    '--compress-program = exec',
    '-r --reverse',
    '-n --numeric',
    '-k --key =',
    '--regexp --regex =',
    '--arg ==',
  ),
};
const r = (args: string[], t: ProgramOptions = table) => resolveOptions(args, compiled(t));
const named = (args: string[], t?: ProgramOptions) => r(args, t).options.map((o) => [o.spec.names[0], o.value ?? null]);

describe('long options', () => {
  test('exact, = and separate values', () => {
    expect(named(['--output=a', '--output', 'b'])).toEqual([
      ['-o', 'a'],
      ['-o', 'b'],
    ]);
  });
  test('a unique prefix is the option; its value follows the same rules', () => {
    expect(named(['--out=a', '--o', 'b', '--comp=sh'])).toEqual([
      ['-o', 'a'],
      ['-o', 'b'],
      ['--compress-program', 'sh'],
    ]);
  });
  test('an ambiguous prefix is reported with its candidates, not guessed', () => {
    const res = r(['--c']);
    expect(res.options).toEqual([]);
    expect(res.ambiguous).toEqual([{ given: '--c', candidates: ['--check', '--compress-program'] }]);
  });
  test('two spellings of one option are one match', () => {
    expect(named(['--rege', 'x'])).toEqual([['--regexp', 'x']]);
  });
  test('an optional value is only taken when attached', () => {
    expect(named(['--check', 'file'])).toEqual([['-c', null]]);
    expect(r(['--check', 'file']).operands).toEqual(['file']);
    expect(named(['--check=quiet'])).toEqual([['-c', 'quiet']]);
  });
  test('an option with two values takes both and keeps the last', () => {
    expect(named(['--arg', 'NAME', 'VALUE', 'x'])).toEqual([['--arg', 'VALUE']]);
    expect(r(['--arg', 'NAME', 'VALUE', 'x']).operands).toEqual(['x']);
  });
  test('unknown long options are reported', () => {
    expect(r(['--zzz', '--out=a']).unknown).toEqual(['--zzz']);
  });
  test('--no- forms switch an option off where the program has them', () => {
    const neg: ProgramOptions = { ...table, negatable: true };
    const res = r(['--no-reverse', '--no-out'], neg);
    expect(res.options.map((o) => [o.spec.names[0], o.negated])).toEqual([
      ['-r', true],
      ['-o', true],
    ]);
    expect(r(['--no-reverse']).unknown).toEqual(['--no-reverse']);
  });
  test('prefixes can be switched off (git rev-parse)', () => {
    expect(r(['--out=a'], { ...table, prefixes: false }).unknown).toEqual(['--out=a']);
  });
});

describe('short options', () => {
  test('combined flags and an attached value', () => {
    expect(named(['-rnoout'])).toEqual([
      ['-r', null],
      ['-n', null],
      ['-o', 'out'],
    ]);
  });
  test('a separate value after a cluster', () => {
    expect(named(['-rno', 'out', 'in'])).toEqual([
      ['-r', null],
      ['-n', null],
      ['-o', 'out'],
    ]);
    expect(r(['-rno', 'out', 'in']).operands).toEqual(['in']);
  });
  test('an unknown letter inside a cluster is named with its cluster', () => {
    expect(r(['-rzn']).unknown).toEqual(['-z (-rzn)']);
  });
  test('counts like -5 are options where the program takes them', () => {
    expect(r(['-5', 'a'], { ...table, numeric: true }).operands).toEqual(['a']);
    expect(r(['-5', 'a']).unknown).toEqual(['-5']);
  });
});

describe('operands and the end of options', () => {
  test('-- ends options: what follows is an operand whatever it looks like', () => {
    const res = r(['-r', '--', '--output=x', '-o']);
    expect(named(['-r', '--', '--output=x', '-o'])).toEqual([['-r', null]]);
    expect(res.operands).toEqual(['--output=x', '-o']);
  });
  test('GNU order: options after operands still count', () => {
    expect(named(['a.txt', '-o', 'b'])).toEqual([['-o', 'b']]);
  });
  test('POSIX order: the first operand ends options', () => {
    const res = r(['a.txt', '-o', 'b'], { ...table, posixOrder: true });
    expect(res.options).toEqual([]);
    expect(res.operands).toEqual(['a.txt', '-o', 'b']);
  });
  test('a lone - is an operand', () => {
    expect(r(['-']).operands).toEqual(['-']);
  });
});

describe('table kinds', () => {
  test('single-dash long options (find) match whole words only', () => {
    const find: ProgramOptions = { singleDashLong: true, opts: opts('-name =', '-exec = exec', '-L') };
    expect(named(['-name', 'x', '-exec', 'rm'], find)).toEqual([
      ['-name', 'x'],
      ['-exec', 'rm'],
    ]);
    expect(r(['-exe', 'rm'], find).unknown).toEqual(['-exe']);
  });
  test('an open table lists effects only; other options are not unknown, effects still resolve', () => {
    const open: ProgramOptions = { open: true, opts: opts('-o --output = write') };
    const res = r(['--anything', '-xyz', '--outp=f'], open);
    expect(res.unknown).toEqual([]);
    expect(res.options.map((o) => [o.spec.names[0], o.value])).toEqual([['-o', 'f']]);
    expect(r(['-xo', 'f'], open).options.map((o) => o.value)).toEqual(['f']);
  });
  test('a program without options takes every argument as an operand', () => {
    expect(r(['-n', '--output=x'], { noOptions: true, opts: [] })).toEqual({
      options: [],
      operands: ['-n', '--output=x'],
      unknown: [],
      ambiguous: [],
    });
  });
  test('dig +options, with their no prefix', () => {
    const res = resolveFor('dig', ['+short', '+notcp', '+zzz', 'example.com']);
    expect(res?.unknown).toEqual(['+zzz']);
    expect(res?.options.map((o) => o.given)).toEqual(['+short', '+notcp']);
  });
});

describe('real tables', () => {
  test("tar's old style expands its letters with their values in order", () => {
    expect(tarOldStyle(['tvfI', 'a.tar', 'sh'], OPTION_TABLES.tar)).toEqual(['-t', '-v', '-f', 'a.tar', '-I', 'sh']);
    expect(resolveFor('tar', ['tvfI', 'a.tar', 'sh'])?.options.map((o) => o.spec.effect ?? '')).toEqual(['', '', '', 'exec']);
  });
  test('go and cargo are read by their sub-command', () => {
    expect(resolveFor('go', ['list', '-toolexec=sh'])?.options[0].spec.effect).toBe('exec');
    expect(resolveFor('go', ['build', '-toolexec=sh'])).toBeUndefined();
  });
  test('npm read sub-commands only', () => {
    expect(resolveFor('npm', ['ls', '--brow=sh'])?.options[0].spec.effect).toBe('exec');
    expect(resolveFor('npm', ['install', '--brow=sh'])).toBeUndefined();
  });
  test('every table entry has a spelling, and no spelling means two options in one table', () => {
    const twice: string[] = [];
    for (const [name, t] of Object.entries(OPTION_TABLES)) {
      const seen = new Map<string, string>();
      for (const spec of t.opts) {
        expect(spec.names.length).toBeGreaterThan(0);
        for (const n of spec.names) {
          const other = seen.get(n);
          if (other !== undefined && other !== spec.names.join(' ')) twice.push(`${name}: ${n}`);
          seen.set(n, spec.names.join(' '));
        }
      }
    }
    expect(twice).toEqual([]);
  });
});

describe('every abbreviation of an option with an effect keeps its effect', () => {
  // getopt_long: a unique prefix is the option; an exact name wins over a longer one; an
  // ambiguous prefix is refused. So every prefix of a write/exec/network option either is that
  // option, is ambiguous (a finding of its own), or is exactly another option's full name.
  test('in every table that accepts prefixes', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [prog, t] of Object.entries(OPTION_TABLES)) {
      if (t.prefixes === false || (t.singleDashLong && t.prefixes !== true) || t.noOptions) continue;
      const c = compiled(t);
      for (const spec of t.opts) {
        if (!spec.effect || spec.effect === 'read-any') continue;
        for (const name of spec.names.filter((n) => n.startsWith('--'))) {
          for (let len = 3; len <= name.length; len++) {
            const given = `${name.slice(0, len)}=x`;
            const res = resolveOptions([given], c);
            checked++;
            const exactOther = c.long.has(name.slice(2, len)) && c.long.get(name.slice(2, len)) !== spec;
            if (res.ambiguous.length || exactOther) continue;
            if (res.options[0]?.spec !== spec) wrong.push(`${prog} ${given}`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
  });
});

import { parseOutput } from '../src/parse-output';
import type { Step } from '../src/types';

const ex = (line: string): Step => {
  const [program, ...args] = line.split(' ');
  return { tool: 'exec', program, args };
};
const ok = (stdoutTail: string, extra = {}) => ({ exitCode: 0, stdoutTail, truncated: false, ...extra });

describe('parseOutput', () => {
  test('rg -n matches: file, line, text, total and first N', () => {
    const out = Array.from({ length: 120 }, (_, i) => `src/f${i % 3}.ts:${i + 1}:// TODO ${i}`).join('\n') + '\n';
    const p = parseOutput(ex('rg -n TODO src'), ok(out), { maxItems: 5 });
    expect(p).toMatchObject({ kind: 'search_matches', total: 120, files: 3 });
    if (p?.kind !== 'search_matches') throw new Error('kind');
    expect(p.items).toHaveLength(5);
    expect(p.items[0]).toEqual({ file: 'src/f0.ts', line: 1, text: '// TODO 0' });
  });

  test('grep -rn and git grep -n', () => {
    expect(parseOutput(ex('grep -rn foo .'), ok('a.txt:3:foo bar\nb/c.txt:10:x foo\n'))).toMatchObject({
      kind: 'search_matches',
      total: 2,
      items: [
        { file: 'a.txt', line: 3, text: 'foo bar' },
        { file: 'b/c.txt', line: 10 },
      ],
    });
    expect(parseOutput(ex('git grep -n foo'), ok('src/a.ts:7:  foo()\n'))).toMatchObject({
      kind: 'search_matches',
      total: 1,
      items: [{ file: 'src/a.ts', line: 7 }],
    });
  });

  test('no match (exit 1) is an empty result', () => {
    expect(parseOutput(ex('rg -n nothing'), { exitCode: 1, stdoutTail: '' })).toEqual({
      kind: 'search_matches',
      total: 0,
      files: 0,
      items: [],
    });
  });

  test('rg -l, ls, ls -la, find, fd are file lists', () => {
    expect(parseOutput(ex('rg -l TODO'), ok('a.ts\nb.ts\n'))).toEqual({ kind: 'file_list', total: 2, items: ['a.ts', 'b.ts'] });
    expect(parseOutput(ex('ls'), ok('README.md\nsrc\n'))).toEqual({ kind: 'file_list', total: 2, items: ['README.md', 'src'] });
    const long =
      'total 8\ndrwxr-xr-x  2 u u 4096 Jan  1 12:00 src\n-rw-r--r--  1 u u  120 Jan  1 12:00 my file.txt\nlrwxrwxrwx  1 u u    3 Jan  1 12:00 l -> x\n';
    expect(parseOutput(ex('ls -la'), ok(long))).toEqual({ kind: 'file_list', total: 3, items: ['src', 'my file.txt', 'l -> x'] });
    expect(parseOutput(ex('find . -name *.ts'), ok('./a.ts\n./b/c.ts\n'))).toMatchObject({ kind: 'file_list', total: 2 });
    expect(parseOutput(ex('fd -e ts'), ok('a.ts\n'))).toMatchObject({ kind: 'file_list', total: 1 });
  });

  test('item counts are bounded, totals are not', () => {
    const many = Array.from({ length: 10000 }, (_, i) => `f${i}`).join('\n');
    const p = parseOutput(ex('find .'), ok(many));
    expect(p).toMatchObject({ kind: 'file_list', total: 10000 });
    if (p?.kind !== 'file_list') throw new Error('kind');
    expect(p.items).toHaveLength(50);
  });

  test('truncated output is marked partial', () => {
    const p = parseOutput(ex('find .'), ok('a\nb\n…[100 bytes omitted]…\ny\nz\n', { truncated: true }));
    expect(p).toMatchObject({ kind: 'file_list', total: 4, partial: true });
  });

  test('git status --porcelain -b', () => {
    const out = '## main...origin/main [ahead 2, behind 1]\n M src/a.ts\nA  new.ts\nR  old.ts -> renamed.ts\n?? tmp/\nUU conflict.ts\n';
    expect(parseOutput(ex('git status --porcelain -b'), ok(out))).toEqual({
      kind: 'git_status',
      branch: 'main',
      upstream: 'origin/main',
      ahead: 2,
      behind: 1,
      clean: false,
      total: 5,
      items: [
        { status: ' M', path: 'src/a.ts' },
        { status: 'A ', path: 'new.ts' },
        { status: 'R ', path: 'renamed.ts', from: 'old.ts' },
        { status: '??', path: 'tmp/' },
        { status: 'UU', path: 'conflict.ts' },
      ],
    });
  });

  test('git status --porcelain=v2 --branch', () => {
    const out =
      '# branch.oid abc\n# branch.head feat\n# branch.upstream origin/feat\n# branch.ab +1 -0\n1 .M N... 100644 100644 100644 aaa bbb src/a.ts\n? x.txt\n';
    expect(parseOutput(ex('git status --porcelain=v2 --branch'), ok(out))).toMatchObject({
      kind: 'git_status',
      branch: 'feat',
      upstream: 'origin/feat',
      ahead: 1,
      behind: 0,
      total: 2,
      items: [
        { status: ' M', path: 'src/a.ts' },
        { status: '??', path: 'x.txt' },
      ],
    });
  });

  test('git status, human form', () => {
    const out = [
      'On branch main',
      "Your branch is ahead of 'origin/main' by 3 commits.",
      '',
      'Changes to be committed:',
      '  (use "git restore --staged <file>..." to unstage)',
      '\tnew file:   a.ts',
      '\trenamed:    b.ts -> c.ts',
      '',
      'Changes not staged for commit:',
      '\tmodified:   README.md',
      '\tdeleted:    old.ts',
      '',
      'Untracked files:',
      '\tnotes.txt',
      '',
    ].join('\n');
    expect(parseOutput(ex('git status'), ok(out))).toEqual({
      kind: 'git_status',
      branch: 'main',
      upstream: 'origin/main',
      ahead: 3,
      clean: false,
      total: 5,
      items: [
        { status: 'A ', path: 'a.ts' },
        { status: 'R ', path: 'c.ts', from: 'b.ts' },
        { status: ' M', path: 'README.md' },
        { status: ' D', path: 'old.ts' },
        { status: '??', path: 'notes.txt' },
      ],
    });
    expect(parseOutput(ex('git status'), ok('On branch main\nnothing to commit, working tree clean\n'))).toEqual({
      kind: 'git_status',
      branch: 'main',
      clean: true,
      total: 0,
      items: [],
    });
  });

  test('git log, default and --oneline', () => {
    const full =
      'commit 0123456789abcdef0123456789abcdef01234567 (HEAD -> main)\nAuthor: A <a@x>\nDate:   Mon Jan 1 00:00:00 2026 +0000\n\n    first line\n\n    body\n\ncommit 1111111111111111111111111111111111111111\nAuthor: B <b@x>\nDate:   Sun\n\n    second\n';
    expect(parseOutput(ex('git log -n 2'), ok(full))).toEqual({
      kind: 'git_log',
      total: 2,
      items: [
        {
          hash: '0123456789abcdef0123456789abcdef01234567',
          author: 'A <a@x>',
          date: 'Mon Jan 1 00:00:00 2026 +0000',
          subject: 'first line',
        },
        { hash: '1111111111111111111111111111111111111111', author: 'B <b@x>', date: 'Sun', subject: 'second' },
      ],
    });
    expect(parseOutput(ex('git log --oneline'), ok('abc1234 (HEAD -> main) fix: x\ndef5678 feat: y\n'))).toEqual({
      kind: 'git_log',
      total: 2,
      items: [
        { hash: 'abc1234', subject: 'fix: x' },
        { hash: 'def5678', subject: 'feat: y' },
      ],
    });
  });

  test('JSON output, small passed through, large summarised', () => {
    expect(parseOutput(ex('cat package.json'), ok('{"name":"x","version":"1.0.0"}\n'))).toEqual({
      kind: 'json',
      type: 'object',
      size: 30,
      value: { name: 'x', version: '1.0.0' },
    });
    const big = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ i })));
    expect(parseOutput(ex('npm ls --json'), ok(big))).toEqual({ kind: 'json', type: 'array', size: big.length, length: 2000 });
    expect(parseOutput(ex('cat x'), ok('{not json'))).toBeUndefined();
  });

  test('other output has no parsed form', () => {
    expect(parseOutput(ex('echo hi'), ok('hi\n'))).toBeUndefined();
    expect(parseOutput(ex('cat x'), ok('\u0000', { binary: true }))).toBeUndefined();
  });

  test('wrappers are looked through', () => {
    expect(parseOutput(ex('timeout 5 rg -n x'), ok('a:1:x\n'))).toMatchObject({ kind: 'search_matches', total: 1 });
  });
});

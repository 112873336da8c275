import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolvePath } from '../src/workspace';
import { walkingFs as walking } from './helpers/walking-fs';

// resolvePath answers an existing path with one realpath(3) call (the kernel's own walk) and
// walks component by component only when something is missing: both must say the same, for
// every kind of link (relative, absolute, chained, `..` after a link, dangling, a loop).

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'resolve-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

beforeAll(() => {
  const p = (...parts: string[]) => path.join(root, ...parts);
  fs.mkdirSync(p('ws', 'src', 'deep'), { recursive: true });
  fs.mkdirSync(p('outside', 'secret'), { recursive: true });
  fs.writeFileSync(p('ws', 'src', 'a.txt'), 'a');
  fs.writeFileSync(p('outside', 'secret', 'key'), 'k');
  fs.symlinkSync('src', p('ws', 'rel'));
  fs.symlinkSync(p('outside', 'secret'), p('ws', 'abs'));
  fs.symlinkSync('rel', p('ws', 'chain'));
  fs.symlinkSync('../../outside', p('ws', 'src', 'up'));
  fs.symlinkSync('nowhere', p('ws', 'dangling'));
  fs.symlinkSync('loop2', p('ws', 'loop1'));
  fs.symlinkSync('loop1', p('ws', 'loop2'));
  fs.symlinkSync(p('ws', 'src', 'a.txt'), p('ws', 'file-link'));
});

const cases = [
  'src/a.txt',
  'rel/a.txt',
  'chain/deep',
  'abs/key',
  'rel/../abs',
  'abs/..',
  'src/up/secret/key',
  'src/up/../ws/rel',
  'rel/./deep/..',
  'dangling',
  'dangling/x',
  'missing/a/b',
  'rel/missing',
  'loop1',
  'loop1/x',
  'file-link',
  'file-link/x',
  '.',
  '..',
];

test.each(cases)('%s: one realpath call and the walk agree', (p) => {
  const cwd = path.join(root, 'ws');
  const fast = resolvePath(p, cwd);
  const walked = resolvePath(p, cwd, {}, walking);
  expect(fast).toEqual(walked);
});

test('an existing path through links leads to its target (the link rule reads this)', () => {
  const r = resolvePath('src/up/secret/key', path.join(root, 'ws'));
  expect(r).toMatchObject({ exists: true, kind: 'file', real: path.join(root, 'outside', 'secret', 'key') });
  expect(resolvePath('dangling', path.join(root, 'ws'))).toMatchObject({ exists: false, real: path.join(root, 'ws', 'nowhere') });
});

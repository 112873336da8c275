import * as path from 'path';
import { classifySpec } from '../src/install-spec';

const cwd = path.resolve('/work/here');
const home = path.resolve('/home/me');

describe('classifySpec', () => {
  test.each([
    ['@holic512/plugin-ai', { kind: 'registry', spec: '@holic512/plugin-ai', name: '@holic512/plugin-ai' }],
    ['@holic512/plugin-ai@1.2.0', { kind: 'registry', spec: '@holic512/plugin-ai@1.2.0', name: '@holic512/plugin-ai' }],
    ['plugin-loc@latest', { kind: 'registry', spec: 'plugin-loc@latest', name: 'plugin-loc' }],
    ['./my-plugin', { kind: 'folder', path: path.join(cwd, 'my-plugin') }],
    ['../x', { kind: 'folder', path: path.resolve(cwd, '../x') }],
    ['/abs/plugin', { kind: 'folder', path: path.resolve('/abs/plugin') }],
    ['~/src/plugin', { kind: 'folder', path: path.join(home, 'src/plugin') }],
    ['file:./p', { kind: 'folder', path: path.join(cwd, 'p') }],
    ['./p-1.0.0.tgz', { kind: 'tarball', path: path.join(cwd, 'p-1.0.0.tgz') }],
    ['p-1.0.0.tgz', { kind: 'tarball', path: path.join(cwd, 'p-1.0.0.tgz') }],
    ['/tmp/p.tar.gz', { kind: 'tarball', path: path.resolve('/tmp/p.tar.gz') }],
    ['https://example.com/p.tgz', { kind: 'other', spec: 'https://example.com/p.tgz' }],
    ['github:user/repo', { kind: 'other', spec: 'github:user/repo' }],
    ['user/repo', { kind: 'other', spec: 'user/repo' }],
    ['x@npm:y', { kind: 'other', spec: 'x@npm:y' }],
  ])('%s', (spec, expected) => {
    expect(classifySpec(spec, cwd, home)).toEqual(expected);
  });
});

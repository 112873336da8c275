/**
 * The pure parts of the release tooling: scripts/release.js's arguments, and how
 * scripts/verdaccio/mirror.js picks the locked third-party packages out of package-lock.json and
 * turns cached tarballs into verdaccio storage.
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// Plain CommonJS scripts; their shapes are spelled out here.
const release = require('../scripts/release.js') as {
  parseArgs(argv: string[]): { command: string; dryRun: boolean; gitTag: boolean; tag?: string };
  preflight(base?: string): string[];
};
const { BUNDLES } = require('../scripts/bundle.js') as { BUNDLES: Array<{ out: string }> };
interface ClosureEntry {
  name: string;
  version: string;
  integrity?: string;
  optional: boolean;
  key: string;
}
const mirror = require('../scripts/verdaccio/mirror.js') as {
  lockfileClosure(lock: unknown, roots: string[]): ClosureEntry[];
  mirrorFromCache(o: { storage: string; cache: string; entries: ClosureEntry[] }): {
    packages: number;
    versions: number;
    skippedOptional: string[];
  };
  manifestOf(tgz: Buffer): Record<string, unknown>;
  contentPath(cache: string, integrity: string): string | undefined;
};

describe('release.js arguments', () => {
  test.each([
    [[], { command: 'all', dryRun: false, gitTag: true, tag: undefined }],
    [['--dry-run'], { command: 'all', dryRun: true, gitTag: true, tag: undefined }],
    [['version'], { command: 'version', dryRun: false, gitTag: true, tag: undefined }],
    [['publish', '--no-git-tag'], { command: 'publish', dryRun: false, gitTag: false, tag: undefined }],
    [['publish', '--tag', 'next', '--dry-run'], { command: 'publish', dryRun: true, gitTag: true, tag: 'next' }],
    [['--help'], { command: 'help', dryRun: false, gitTag: true, tag: undefined }],
  ])('%j', (argv, expected) => {
    expect(release.parseArgs(argv)).toEqual(expected);
  });

  test.each([[['--bogus']], [['--tag']], [['publsh']]])('%j is a usage error (exit 2)', (argv) => {
    expect(() => release.parseArgs(argv)).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('usage:') }));
  });
});

describe('release preflight', () => {
  const root = path.join(__dirname, '..');
  /** A copy of this checkout's publishable layout: package.json, README, LICENSE, main, bins and bundles of each package. */
  function layout(): string {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'preflight-'));
    const put = (rel: string, text = 'x') => {
      fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
      fs.writeFileSync(path.join(base, rel), text);
    };
    for (const name of fs.readdirSync(path.join(root, 'packages'))) {
      const file = path.join(root, 'packages', name, 'package.json');
      if (!fs.existsSync(file)) continue;
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
      put(`packages/${name}/package.json`, JSON.stringify(pkg));
      for (const f of [
        'README.md',
        'LICENSE',
        ...(pkg.main ? [pkg.main] : []),
        ...Object.values<string>(typeof pkg.bin === 'string' ? { b: pkg.bin } : pkg.bin || {}),
      ])
        put(`packages/${name}/${f}`);
    }
    for (const b of BUNDLES) put(path.relative(root, b.out));
    return base;
  }

  test('a complete layout has nothing missing; each missing bundle, README or bin is named with what to do', () => {
    const base = layout();
    try {
      expect(release.preflight(base)).toEqual([]);
      const bundle = path.relative(root, BUNDLES.find((b) => b.out.includes('plugin-llm-base'))!.out);
      fs.rmSync(path.join(base, bundle));
      fs.rmSync(path.join(base, 'packages/json-patch/README.md'));
      fs.rmSync(path.join(base, 'packages/plugin-ai/bin/ai.js'));
      expect(release.preflight(base).sort()).toEqual(
        [
          `${bundle} (bundle) is missing: run scripts/bundle.js`,
          'packages/json-patch/README.md is missing (npm packs it from the package folder only)',
          'packages/plugin-ai/bin/ai.js (bin) is missing',
        ].sort(),
      );
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  test('this checkout, built, passes it', () => {
    expect(release.preflight()).toEqual([]);
  });
});

describe('lockfileClosure', () => {
  const lock = {
    lockfileVersion: 3,
    packages: {
      '': { workspaces: ['packages/*'] },
      'packages/app': {
        name: '@x/app',
        dependencies: { '@x/lib': '^1.0.0', hoisted: '^1.0.0', nested: '^2.0.0' },
        optionalDependencies: { 'only-optional': '^1.0.0' },
        peerDependencies: { 'optional-peer': '*', 'late-peer': '*' },
        peerDependenciesMeta: { 'optional-peer': { optional: true } },
        devDependencies: { 'dev-only': '^1.0.0' },
      },
      'packages/lib': { name: '@x/lib', dependencies: { 'from-lib': '^1.0.0' } },
      'node_modules/@x/lib': { resolved: 'packages/lib', link: true },
      'node_modules/@x/app': { resolved: 'packages/app', link: true },
      'node_modules/hoisted': { version: '1.2.0', integrity: 'sha512-aG9pc3RlZA==', dependencies: { deep: '^3.0.0', nested: '^1.0.0' } },
      'node_modules/hoisted/node_modules/deep': { version: '3.0.1', integrity: 'sha512-ZGVlcA==' },
      'node_modules/nested': { version: '1.0.0', integrity: 'sha512-bjE=' },
      'packages/app/node_modules/nested': { version: '2.0.0', integrity: 'sha512-bjI=' },
      'node_modules/deep': { version: '9.9.9', integrity: 'sha512-d3Jvbmc=' },
      'node_modules/from-lib': { version: '1.0.0', integrity: 'sha512-Zg==' },
      'node_modules/late-peer': { version: '1.0.0', integrity: 'sha512-bA==', dependencies: { 'both-ways': '^1.0.0' } },
      'node_modules/only-optional': { version: '1.0.0', integrity: 'sha512-bw==', optional: true, dependencies: { 'both-ways': '^1.0.0' } },
      'node_modules/both-ways': { version: '1.0.0', integrity: 'sha512-Yg==' },
      'node_modules/dev-only': { version: '1.0.0', integrity: 'sha512-ZA==', dev: true },
    },
  };

  // both-ways is first reached through an optional dependency, then through a required peer:
  // it ends up required. deep@9.9.9 is shadowed by hoisted's own copy; dev-only is not installed.
  test('follows links, nested lookup, optional and peer edges; skips dev and missing optional peers', () => {
    const got = mirror.lockfileClosure(lock, ['packages/app']).map((e) => [`${e.name}@${e.version}`, e.optional, e.key]);
    expect(got).toEqual([
      ['both-ways@1.0.0', false, 'node_modules/both-ways'],
      ['from-lib@1.0.0', false, 'node_modules/from-lib'],
      ['hoisted@1.2.0', false, 'node_modules/hoisted'],
      ['deep@3.0.1', false, 'node_modules/hoisted/node_modules/deep'],
      ['late-peer@1.0.0', false, 'node_modules/late-peer'],
      ['nested@1.0.0', false, 'node_modules/nested'],
      ['only-optional@1.0.0', true, 'node_modules/only-optional'],
      ['nested@2.0.0', false, 'packages/app/node_modules/nested'],
    ]);
  });

  test('a required dependency the lockfile does not resolve is an error naming it', () => {
    const broken = { packages: { ...lock.packages, 'node_modules/hoisted': { version: '1.2.0', dependencies: { ghost: '^1.0.0' } } } };
    expect(() => mirror.lockfileClosure(broken, ['packages/app'])).toThrow(/node_modules\/hoisted depends on ghost/);
  });

  test('the real lockfile resolves every public package without error', () => {
    const real = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package-lock.json'), 'utf8'));
    const roots = ['json-patch', 'tool-runner', 'plugin-llm-base', 'plugin-ai', 'slothtool'].map((f) => `packages/${f}`);
    const entries = mirror.lockfileClosure(real, roots);
    expect(entries.map((e) => e.name)).toEqual(expect.arrayContaining(['openai', 'zod', 'write-file-atomic']));
    expect(entries.filter((e) => e.name.startsWith('@holic512/'))).toEqual([]);
  });
});

describe('mirrorFromCache', () => {
  let tmp: string;
  let tgz: Buffer;
  let integrity: string;

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-tooling-'));
    const pkgDir = path.join(tmp, 'src-pkg');
    fs.mkdirSync(pkgDir);
    fs.writeFileSync(
      path.join(pkgDir, 'package.json'),
      JSON.stringify({ name: '@demo/thing', version: '1.4.2', main: 'index.js', dependencies: { zod: '^4.0.0' } }),
    );
    fs.writeFileSync(path.join(pkgDir, 'index.js'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(pkgDir, 'README.md'), '# thing\n');
    const r = spawnSync('npm', ['pack', '--pack-destination', tmp, '--json'], {
      cwd: pkgDir,
      encoding: 'utf8',
      env: { ...process.env, npm_config_ignore_scripts: 'true' },
    });
    if (r.status !== 0) throw new Error(r.stderr);
    tgz = fs.readFileSync(path.join(tmp, 'demo-thing-1.4.2.tgz'));
    integrity = `sha512-${crypto.createHash('sha512').update(tgz).digest('base64')}`;
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('reads package.json out of an npm tarball', () => {
    expect(mirror.manifestOf(tgz)).toMatchObject({ name: '@demo/thing', version: '1.4.2', dependencies: { zod: '^4.0.0' } });
  });

  test('writes a verdaccio document with only the locked versions, and the tarball beside it', () => {
    const cache = path.join(tmp, 'cache');
    const file = mirror.contentPath(cache, integrity)!;
    expect(file).toContain(path.join('_cacache', 'content-v2', 'sha512'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, tgz);
    const storage = path.join(tmp, 'storage');
    const entries: ClosureEntry[] = [
      { name: '@demo/thing', version: '1.4.2', integrity, optional: false, key: 'node_modules/@demo/thing' },
      { name: 'fsevents', version: '2.3.3', integrity: 'sha512-bm90LWNhY2hlZA==', optional: true, key: 'node_modules/fsevents' },
    ];
    expect(mirror.mirrorFromCache({ storage, cache, entries })).toEqual({ packages: 1, versions: 1, skippedOptional: ['fsevents@2.3.3'] });
    const doc = JSON.parse(fs.readFileSync(path.join(storage, '@demo', 'thing', 'package.json'), 'utf8'));
    expect(Object.keys(doc.versions)).toEqual(['1.4.2']);
    expect(doc['dist-tags']).toEqual({ latest: '1.4.2' });
    expect(doc.versions['1.4.2']).toMatchObject({ name: '@demo/thing', _id: '@demo/thing@1.4.2', dist: { integrity } });
    expect(doc.versions['1.4.2'].dist.tarball).toMatch(/\/@demo\/thing\/-\/thing-1\.4\.2\.tgz$/);
    expect(fs.readFileSync(path.join(storage, '@demo', 'thing', 'thing-1.4.2.tgz')).equals(tgz)).toBe(true);
  });

  test('a required tarball missing from the cache is an error that says to run npm ci', () => {
    const entries: ClosureEntry[] = [
      { name: 'absent', version: '1.0.0', integrity: 'sha512-YWJzZW50', optional: false, key: 'node_modules/absent' },
    ];
    expect(() => mirror.mirrorFromCache({ storage: path.join(tmp, 's2'), cache: path.join(tmp, 'empty'), entries })).toThrow(
      /absent@1\.0\.0.*npm ci/s,
    );
  });
});

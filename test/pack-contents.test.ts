/**
 * What each public package's tarball holds (issue #8): exactly package.json, README.md, LICENSE,
 * the bin files, the compiled lib/ (a .js and a .d.ts for every src/ module) and the bundles
 * scripts/bundle.js writes into the package (dist/), nothing else:
 * no sources, tests, tsconfig, source maps or build info. And the package.json fields that
 * `slothtool install` and npm rely on. Runs `npm pack --dry-run --json` per package (after the
 * build that `npm test` does first), so it sees what npm would really publish.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import satisfies from 'semver/functions/satisfies';

const root = path.resolve(__dirname, '..');
const { BUNDLES } = require('../scripts/bundle') as { BUNDLES: { out: string }[] };
const packagesDir = path.join(root, 'packages');

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  files?: string[];
  engines?: Record<string, string>;
  slothtool?: Record<string, unknown>;
  publishConfig?: Record<string, unknown>;
  repository?: { type?: string; url?: string; directory?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

interface PackResult {
  name: string;
  version: string;
  files: { path: string; size: number; mode: number }[];
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function readPackage(dir: string): PackageJson {
  const pkg = readJson(path.join(dir, 'package.json'));
  if (typeof pkg !== 'object' || pkg === null || typeof (pkg as PackageJson).name !== 'string') {
    throw new Error(`${dir}/package.json has no name`);
  }
  return pkg as PackageJson;
}

const all = fs
  .readdirSync(packagesDir)
  .filter((d) => fs.existsSync(path.join(packagesDir, d, 'package.json')))
  .map((folder) => ({ folder, dir: path.join(packagesDir, folder), pkg: readPackage(path.join(packagesDir, folder)) }));
const publicPackages = all.filter((p) => !p.pkg.private);
const byName = new Map(all.map((p) => [p.pkg.name, p]));

/** npm exports its own config to scripts as npm_config_*; the child npm should read only files. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD') env[k] = v;
  return env;
}

function pack(dir: string): PackResult {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack --dry-run in ${dir} failed (${r.status}):\n${r.stderr}`);
  const parsed = readJsonText(r.stdout);
  if (!Array.isArray(parsed) || parsed.length !== 1) throw new Error(`unexpected npm pack output: ${r.stdout}`);
  return parsed[0] as PackResult;
}

function readJsonText(text: string): unknown {
  // lifecycle scripts may print before npm's JSON; the JSON array starts at the first '[' of a line
  const start = text.search(/^\[/m);
  return JSON.parse(start >= 0 ? text.slice(start) : text);
}

function walk(dir: string, rel = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? walk(path.join(dir, e.name), r) : [r];
  });
}

function binEntries(pkg: PackageJson): [string, string][] {
  if (!pkg.bin) return [];
  if (typeof pkg.bin === 'string') return [[pkg.name.replace(/^@[^/]+\//, ''), pkg.bin]];
  return Object.entries(pkg.bin);
}

const normalise = (p: string): string => p.replace(/^\.\//, '');

/** The file list a tarball must have: derived from src/, so it stays exact as modules are added. */
function expectedFiles(dir: string, pkg: PackageJson): string[] {
  const out = new Set(['package.json', 'README.md', 'LICENSE']);
  for (const [, file] of binEntries(pkg)) out.add(normalise(file));
  for (const f of walk(path.join(dir, 'src'))) {
    if (f.endsWith('.d.ts')) continue; // tsc does not copy hand-written declarations
    if (f.endsWith('.ts')) {
      out.add(`lib/${f.replace(/\.ts$/, '.js')}`);
      out.add(`lib/${f.replace(/\.ts$/, '.d.ts')}`);
    } else if (f.endsWith('.json')) out.add(`lib/${f}`);
  }
  for (const b of BUNDLES) {
    const rel = path.relative(dir, b.out);
    if (!rel.startsWith('..')) out.add(rel.split(path.sep).join('/'));
  }
  return [...out].sort();
}

const rootLicense = fs.readFileSync(path.join(root, 'LICENSE'), 'utf8');

test('the public packages are the ones the release publishes', () => {
  expect(publicPackages.map((p) => p.pkg.name).sort()).toEqual([
    '@holic512/json-patch',
    '@holic512/plugin-ai',
    '@holic512/plugin-llm-base',
    '@holic512/shared',
    '@holic512/slothtool',
    '@holic512/tool-runner',
  ]);
  expect(byName.get('@holic512/testkit')?.pkg.private).toBe(true);
});

describe.each(publicPackages.map((p) => [p.pkg.name, p] as const))('%s', (_name, { dir, folder, pkg }) => {
  let packed: PackResult;
  beforeAll(() => {
    packed = pack(dir);
  });

  test('the tarball holds exactly bin/, lib/*.js + .d.ts, its bundles, README.md, LICENSE and package.json', () => {
    const files = packed.files.map((f) => f.path).sort();
    const unwanted = files.filter(
      (f) => /(^|\/)(src|test|__tests__)\//.test(f) || /\.(map|tsbuildinfo)$|(^|\/)tsconfig[^/]*\.json$|\.test\.[jt]s$/.test(f),
    );
    expect(unwanted).toEqual([]);
    expect(files).toEqual(expectedFiles(dir, pkg));
  });

  test('package.json has the fields npm and slothtool rely on', () => {
    expect(pkg.name).toBe(`@holic512/${folder}`);
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(pkg.license).toBe('MIT');
    expect(pkg.main).toBe('lib/index.js');
    expect(pkg.types).toBe('lib/index.d.ts');
    expect(pkg.engines).toEqual({ node: '>=20.19' });
    expect(pkg.files).toEqual(expect.arrayContaining(['lib']));
    expect(pkg.publishConfig).toMatchObject({ access: 'public' });
    expect(pkg.repository).toMatchObject({ directory: `packages/${folder}` });
    const files = packed.files.map((f) => f.path);
    expect(files).toContain(pkg.main);
    expect(files).toContain(pkg.types);
  });

  test('bin files are in the tarball, executable scripts for node, and the first one is the SlothTool alias', () => {
    const bins = binEntries(pkg);
    if (bins.length === 0) {
      expect(pkg.files).not.toContain('bin');
      return;
    }
    expect(pkg.files).toContain('bin');
    // alias rule (DESIGN §3): strip the scope, then a leading `plugin-`
    expect(bins[0][0]).toBe(pkg.name.replace(/^@[^/]+\//, '').replace(/^plugin-/, ''));
    for (const [, file] of bins) {
      const entry = packed.files.find((f) => f.path === normalise(file));
      expect(entry).toBeDefined();
      expect(fs.readFileSync(path.join(dir, file), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    }
  });

  test('LICENSE is the repository LICENSE and README.md says what the package is', () => {
    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toBe(rootLicense);
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    expect(readme).toContain(pkg.name);
  });

  test('sibling dependencies are caret ranges that admit the sibling as it is now; no private package', () => {
    for (const field of ['dependencies', 'peerDependencies'] as const) {
      for (const [dep, range] of Object.entries(pkg[field] ?? {})) {
        const sibling = byName.get(dep);
        if (!sibling) continue;
        expect({ dep, private: sibling.pkg.private ?? false }).toEqual({ dep, private: false });
        expect({ dep, range, admits: range.startsWith('^') && satisfies(sibling.pkg.version, range) }).toEqual({
          dep,
          range,
          admits: true,
        });
      }
    }
  });
});

test('the plugin metadata SlothTool reads', () => {
  // interactive / interactiveFlag: the original host's menu; inProcess: our host runs it in its own process.
  expect(byName.get('@holic512/plugin-ai')?.pkg.slothtool).toEqual({ interactive: true, interactiveFlag: '-i', inProcess: true });
  expect(byName.get('@holic512/plugin-llm-base')?.pkg.slothtool).toMatchObject({ inProcess: true });
  expect(binEntries(byName.get('@holic512/plugin-ai')!.pkg)[0]).toEqual(['ai', 'bin/ai.js']);
  expect(binEntries(byName.get('@holic512/plugin-llm-base')!.pkg)[0]).toEqual(['llm-base', 'bin/llm-base.js']);
  expect(binEntries(byName.get('@holic512/slothtool')!.pkg)[0]).toEqual(['slothtool', 'bin/slothtool.js']);
});

test('the dependency chain plugin-ai → tool-runner → json-patch uses the npm registry, not workspace links', () => {
  const deps = (name: string): Record<string, string> => byName.get(name)?.pkg.dependencies ?? {};
  expect(Object.keys(deps('@holic512/plugin-ai'))).toContain('@holic512/tool-runner');
  expect(Object.keys(deps('@holic512/tool-runner'))).toContain('@holic512/json-patch');
  // llm-base is found at run time through registry.json, never an npm dependency (DESIGN §2)
  expect(Object.keys(deps('@holic512/plugin-ai'))).not.toContain('@holic512/plugin-llm-base');
  for (const { pkg } of publicPackages) {
    for (const range of Object.values({ ...pkg.dependencies, ...pkg.peerDependencies })) {
      expect(range).not.toMatch(/^(workspace:|file:|link:)/);
    }
  }
});

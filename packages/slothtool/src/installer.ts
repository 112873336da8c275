import { randomBytes } from 'crypto';
import fs = require('fs');
import os = require('os');
import path = require('path');
import { z } from 'zod';
import { aliasFromName, isValidAlias } from './alias';
import { SlothToolError } from './errors';
import { classifySpec, npmInstallArgs, type InstallSpec } from './install-spec';
import { readJsonFile } from './json-file';
import { createRunNpm, type RunNpm } from './npm';
import { firstBin, interactiveFlagOf, readPluginPackage, type PluginPackage } from './package-json';
import { isInside, pluginDir, type HomePaths } from './paths';
import { getEntry, readRegistry, updateRegistry, type RegistryEntry } from './registry';

/** Side effects of install and update, replaceable in tests. */
export interface InstallerDeps {
  runNpm: RunNpm;
  now: () => Date;
  env: NodeJS.ProcessEnv;
  /** Folder relative specs are resolved against. */
  cwd: string;
  /** Whether a process id is running (to tell leftovers of a killed install from a running one). */
  isAlive: (pid: number) => boolean;
}

export function createDefaultInstallerDeps(): InstallerDeps {
  return { runNpm: createRunNpm(), now: () => new Date(), env: process.env, cwd: process.cwd(), isAlive: processIsAlive };
}

export interface InstallOptions {
  /** Receives npm's output as it runs (a verbose CLI passes it through). */
  onNpmOutput?: (chunk: string) => void;
  /** Abort to stop npm and clean up (the CLI aborts on SIGINT/SIGTERM): INTERRUPTED. */
  signal?: AbortSignal;
}

export interface InstallResult {
  alias: string;
  entry: RegistryEntry;
  /** `<home>/plugins/<alias>`. */
  pluginDir: string;
  /** Set when the plugin declares an interactive mode. */
  interactiveFlag?: string;
}

/** A package npm installed into a staging prefix, not yet visible under its alias. */
interface Staged {
  dir: string;
  /** Folder under node_modules (the dependency key npm saved). */
  folder: string;
  pkg: PluginPackage;
  alias: string;
  /** Path of the bin relative to the package folder. */
  bin: string;
}

const PrefixPackageSchema = z.looseObject({ dependencies: z.record(z.string(), z.string()).optional() });

function removeQuietly(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Work folders under `plugins/`: `<prefix><pid>-<random>[-<alias>]`. Aliases never start with a dot. */
const STAGING = '.staging-';
const ASIDE = '.old-';

/**
 * Remove work folders left by an install that was killed outright (SIGKILL, power loss):
 * those whose owning process no longer exists. A live process's folders are never touched.
 */
export function sweepLeftovers(pluginsDir: string, isAlive: (pid: number) => boolean): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(pluginsDir)) {
    const m = /^\.(?:staging|old)-(\d+)-/.exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    removeQuietly(path.join(pluginsDir, name));
    removed.push(name);
  }
  return removed;
}

/** Whether a process exists (signal 0 checks without sending anything). */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/**
 * Run `npm install <spec> --prefix <staging>` in a fresh folder under `plugins/`, then learn
 * the real package name from what npm saved, validate it and find its bin. The staging folder
 * is a sibling of the final one so npm's relative `file:` specs stay valid after the rename.
 * On failure the staging folder is gone.
 */
async function stage(paths: HomePaths, spec: InstallSpec, deps: InstallerDeps, options: InstallOptions): Promise<Staged> {
  if (spec.kind === 'folder' || spec.kind === 'tarball') {
    const stat = fs.statSync(spec.path, { throwIfNoEntry: false });
    const ok = spec.kind === 'folder' ? stat?.isDirectory() && fs.existsSync(path.join(spec.path, 'package.json')) : stat?.isFile();
    if (!ok) throw new SlothToolError('SPEC_NOT_FOUND', { path: spec.path, kind: spec.kind });
  }
  fs.mkdirSync(paths.plugins, { recursive: true });
  sweepLeftovers(paths.plugins, deps.isAlive);
  const dir = path.join(paths.plugins, `${STAGING}${process.pid}-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(dir); // not mkdtemp: that makes the folder private (0700)
  try {
    const { target, flags } = npmInstallArgs(spec);
    const args = ['install', target, '--prefix', dir, '--no-audit', '--no-fund', '--no-update-notifier', ...flags];
    const result = await deps.runNpm(args, { cwd: dir, env: deps.env, onOutput: options.onNpmOutput, signal: options.signal });
    if (options.signal?.aborted) throw new SlothToolError('INTERRUPTED');
    if (result.code !== 0) {
      throw new SlothToolError('NPM_FAILED', {
        command: `npm ${args.join(' ')}`,
        status: String(result.code ?? result.signal),
        output: result.output.trim(),
      });
    }
    const saved = readJsonFile(path.join(dir, 'package.json'));
    const prefixPkg = saved.kind === 'ok' ? PrefixPackageSchema.safeParse(saved.value) : undefined;
    const folders = Object.keys((prefixPkg?.success && prefixPkg.data.dependencies) || {});
    if (folders.length !== 1) {
      throw new SlothToolError('PACKAGE_UNREADABLE', {
        file: path.join(dir, 'package.json'),
        detail: `expected npm to record one dependency, found ${folders.length}`,
      });
    }
    const folder = folders[0];
    const pkgDir = path.join(dir, 'node_modules', folder);
    const pkg = readPluginPackage(pkgDir);
    const alias = aliasFromName(pkg.name);
    if (!isValidAlias(alias)) throw new SlothToolError('INVALID_ALIAS', { alias, name: pkg.name });
    const bin = firstBin(pkg);
    if (!bin) throw new SlothToolError('NO_BIN', { name: pkg.name });
    if (!fs.statSync(path.join(pkgDir, bin), { throwIfNoEntry: false })?.isFile()) {
      throw new SlothToolError('PACKAGE_BIN_MISSING', { name: pkg.name, bin });
    }
    return { dir, folder, pkg, alias, bin };
  } catch (err) {
    removeQuietly(dir);
    throw err;
  }
}

function alreadyInstalled(alias: string, entry: RegistryEntry): SlothToolError {
  return new SlothToolError('ALREADY_INSTALLED', { alias, name: entry.name, version: entry.version });
}

/**
 * Move `from` onto `to`, replacing whatever is there; the old folder is kept aside until the
 * rename succeeded and put back when it did not.
 */
function swapInto(from: string, to: string): void {
  const aside = fs.existsSync(to)
    ? path.join(path.dirname(to), `${ASIDE}${process.pid}-${randomBytes(4).toString('hex')}-${path.basename(to)}`)
    : undefined;
  if (aside) fs.renameSync(to, aside);
  try {
    fs.renameSync(from, to);
  } catch (err) {
    if (aside) fs.renameSync(aside, to);
    throw err;
  }
  if (aside) removeQuietly(aside);
}

/**
 * Move a staged package onto `target` unless the run was interrupted or `check` throws; on any
 * failure the staged folder is removed. Returns the path of its bin there.
 */
function moveStaged(staged: Staged, target: string, options: InstallOptions, check: () => void): string {
  try {
    if (options.signal?.aborted) throw new SlothToolError('INTERRUPTED');
    check();
    swapInto(staged.dir, target);
  } catch (err) {
    removeQuietly(staged.dir);
    throw err;
  }
  return path.join(target, 'node_modules', staged.folder, staged.bin);
}

/**
 * `slothtool install <spec>`: npm name, local folder or tarball. Installs with npm into a
 * staging prefix, derives the alias from the installed package's real name, checks its bin,
 * moves it to `plugins/<alias>` and writes the registry entry. Nothing is left behind on failure.
 */
export async function installPlugin(
  paths: HomePaths,
  rawSpec: string,
  deps: InstallerDeps = createDefaultInstallerDeps(),
  options: InstallOptions = {},
): Promise<InstallResult> {
  const spec = classifySpec(rawSpec, deps.cwd, deps.env.HOME || os.homedir());
  const before = readRegistry(paths);
  if (spec.kind === 'registry') {
    // Cheap early answer for the common case; the real check below uses the installed name.
    const guessed = getEntry(before, aliasFromName(spec.name));
    if (guessed && guessed.name === spec.name) throw alreadyInstalled(aliasFromName(spec.name), guessed);
  }
  const staged = await stage(paths, spec, deps, options);
  const target = pluginDir(paths, staged.alias);
  // A folder there without a registry entry is debris of a crash: it is replaced.
  const binPath = moveStaged(staged, target, options, () => {
    const existing = getEntry(readRegistry(paths), staged.alias);
    if (existing) throw alreadyInstalled(staged.alias, existing);
  });
  try {
    const entry: RegistryEntry = {
      name: staged.pkg.name,
      version: staged.pkg.version ?? '',
      binPath,
      installedAt: deps.now().toISOString(),
    };
    updateRegistry(paths, (registry) => {
      const raced = getEntry(registry, staged.alias);
      if (raced) throw alreadyInstalled(staged.alias, raced);
      registry.plugins[staged.alias] = entry;
      return true;
    });
    return { alias: staged.alias, entry, pluginDir: target, interactiveFlag: interactiveFlagOf(staged.pkg) };
  } catch (err) {
    removeQuietly(target);
    throw err;
  }
}

export interface UpdateResult {
  alias: string;
  name: string;
  fromVersion: string;
  toVersion: string;
}

/**
 * The spec `update` reinstalls from: the same local folder or tarball when the plugin came from
 * one (as npm recorded it in the prefix's package.json), else `<name>@latest`.
 */
function updateSpec(dir: string, entry: RegistryEntry, cwd: string, homeDir: string): InstallSpec {
  const saved = readJsonFile(path.join(dir, 'package.json'));
  const parsed = saved.kind === 'ok' ? PrefixPackageSchema.safeParse(saved.value) : undefined;
  const recorded = parsed?.success ? Object.values(parsed.data.dependencies ?? {}) : [];
  if (recorded.length === 1 && recorded[0].startsWith('file:')) {
    return classifySpec(path.resolve(dir, recorded[0].slice('file:'.length)), cwd, homeDir);
  }
  return classifySpec(`${entry.name}@latest`, cwd, homeDir);
}

/**
 * `slothtool update <alias>`: reinstall into a staging prefix and swap it in, so a failed update
 * leaves the working version untouched. Plugins registered from a checkout (not under
 * `plugins/<alias>`) are not ours to update: NOT_MANAGED.
 */
export async function updatePlugin(
  paths: HomePaths,
  alias: string,
  deps: InstallerDeps = createDefaultInstallerDeps(),
  options: InstallOptions = {},
): Promise<UpdateResult> {
  const entry = getEntry(readRegistry(paths), alias);
  if (!entry) throw new SlothToolError('NOT_INSTALLED', { alias });
  const dir = pluginDir(paths, alias);
  if (!isInside(dir, entry.binPath)) throw new SlothToolError('NOT_MANAGED', { alias, binPath: entry.binPath });
  const spec = updateSpec(dir, entry, deps.cwd, deps.env.HOME || os.homedir());
  const staged = await stage(paths, spec, deps, options);
  const binPath = moveStaged(staged, dir, options, () => {
    if (staged.alias !== alias) throw new SlothToolError('NAME_MISMATCH', { alias, expected: entry.name, found: staged.pkg.name });
  });
  const toVersion = staged.pkg.version ?? '';
  updateRegistry(paths, (registry) => {
    const current = getEntry(registry, alias) ?? entry;
    registry.plugins[alias] = {
      ...current,
      name: staged.pkg.name,
      version: toVersion,
      binPath,
      installedAt: current.installedAt,
      updatedAt: deps.now().toISOString(),
    };
    return true;
  });
  return { alias, name: staged.pkg.name, fromVersion: entry.version, toVersion };
}

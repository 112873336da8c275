import { isAscii } from 'buffer';
import { createHash } from 'crypto';
import fs = require('fs');
import path = require('path');
import vm = require('vm');
import Module = require('module');
import { writeFileAtomicSync } from './atomic-write';
import { slothtoolHome } from './home';
import { ensurePrivateDir } from './private-files';

/** Where the bins keep the code cache: `<SlothTool home>/cache/v8`; undefined while there is no
 * SlothTool home (`ai` run on its own before any setup), which a cache never creates. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const home = slothtoolHome(env);
  return fs.existsSync(home) ? path.join(home, 'cache', 'v8') : undefined;
}

/** What happened to a bundle's cache: `used`; `none` (none yet, or no cacheDir); `rejected`
 * (made for another text, damaged, or refused by V8). */
export type CodeCacheState = 'used' | 'none' | 'rejected';

/** How a bundle's text begins (scripts/bundle.js). */
export const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname) {';

export interface LoadBundleOptions {
  /** Folder of the cache; without one the bundle is compiled from its text every time. */
  cacheDir?: string;
  /** The module that loads it (its parent, as `require` would set). */
  parent?: NodeModule;
  /** Told what became of the cache (for tests and diagnostics). */
  onCache?: (state: CodeCacheState) => void;
  /** A run that lasted this long (ms; default 1000) rewrites a usable cache when it compiled 10 % more. */
  refreshAfterMs?: number;
  /** Modules the bundle's `require(id)` gets as they are, instead of loading its own copy (a
   * library the caller has loaded already and the bundle left outside: llm-base's zod). */
  provide?: Record<string, unknown>;
}

/**
 * Load a bundle made by scripts/bundle.js, with V8's code cache (docs/architecture.md §6).
 *
 * A bundle's text is one function expression `(function (exports, require, module, __filename,
 * __dirname) {…})`. It is compiled with the cached code of an earlier run when there is one
 * that V8 accepts, so nothing is parsed or compiled again; when there is none (or V8 rejects it:
 * another node, other V8 flags, a damaged file), the run's code is written when the process
 * exits — after it ran, so the cache holds every function the run compiled, not only the
 * top level. A run of a second or more rewrites a usable cache when it compiled 10 % more.
 * One cache per bundle file and node version; it records the SHA-1 of the text it was made
 * for, so a changed bundle never runs an old cache's code, and its own (see seal). Caches of
 * the same bundle for another node are removed when a new one is written.
 *
 * The cache is only a speed-up: a cache that cannot be read or written is left alone, silently,
 * and the bundle still loads. It lives in `cacheDir` (created 0700, files 0600, written
 * atomically), which must be as private as the code beside it: the SlothTool home's `cache/v8`.
 *
 * Returns the bundle's `module.exports`, the same object for every call in a process. Throws when
 * the bundle cannot be read, is not one, or its own code throws.
 */
export function loadBundle(file: string, options: LoadBundleOptions = {}): unknown {
  // Loaded once per process, as `require` does (and kept in require.cache, so `require(file)`
  // gives the same module): a second load would be a second copy of everything in it.
  file = path.resolve(file);
  const known = require.cache[file];
  if (known) return known.exports;
  const bytes = fs.readFileSync(file);
  // scripts/bundle.js writes ASCII only: latin1 makes the same string at memcpy speed.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  if (!source.startsWith(BUNDLE_HEAD)) throw notABundle(file);
  const cacheFile = options.cacheDir ? cacheFileFor(file, options.cacheDir) : undefined;
  const sourceDigest = cacheFile ? textDigest(file, source, bytes) : undefined;
  let cachedData: Buffer | undefined;
  let damaged = false;
  if (cacheFile && sourceDigest) {
    try {
      cachedData = unseal(fs.readFileSync(cacheFile), sourceDigest);
      damaged = cachedData === undefined;
    } catch {
      // no cache yet (or unreadable): compiled from the text, and written at exit
    }
  }
  const script = new vm.Script(source, { filename: file, cachedData });
  const wrapper: unknown = script.runInThisContext();
  if (typeof wrapper !== 'function') throw notABundle(file);
  const mod = new Module(file, options.parent);
  mod.filename = file;
  require.cache[file] = mod;
  const plain = Module.createRequire(file);
  const provided = options.provide;
  const req = provided
    ? Object.assign((id: string): unknown => (Object.prototype.hasOwnProperty.call(provided, id) ? provided[id] : plain(id)), plain)
    : plain;
  try {
    (wrapper as (...args: unknown[]) => void).call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  } catch (err) {
    delete require.cache[file]; // as require does: a module that threw is not kept
    throw err;
  }
  mod.loaded = true;
  const rejected = damaged || (cachedData !== undefined && script.cachedDataRejected === true);
  options.onCache?.(rejected ? 'rejected' : cachedData ? 'used' : 'none');
  if (cacheFile && sourceDigest) {
    const loadedAt = Date.now();
    const refreshAfterMs = options.refreshAfterMs ?? REFRESH_AFTER_MS;
    const usedBytes = !cachedData || rejected ? 0 : cachedData.length;
    process.once('exit', () => {
      // No usable cache: write this run's. A usable one is kept, unless this run was long enough
      // for the cost of making a new one (a few ms) not to matter, and compiled noticeably more
      // than the cache holds (V8's new data is a superset: what came from the cache and what
      // this run compiled), so a first short run (`ai mcp list`) does not leave a thin cache.
      try {
        if (usedBytes === 0) saveCache(script.createCachedData(), cacheFile, sourceDigest, cachePrefix(file));
        else if (Date.now() - loadedAt >= refreshAfterMs) {
          const data = script.createCachedData();
          if (data.length > usedBytes * REFRESH_GROWTH) saveCache(data, cacheFile, sourceDigest, cachePrefix(file));
        }
      } catch {
        // V8 could not serialise: the next start compiles, as without a cache
      }
    });
  }
  return mod.exports;
}

function notABundle(file: string): Error {
  return new Error(`${file} is not a bundle (its text must be one function expression, as scripts/bundle.js writes it)`);
}

/** A run at least this long (ms) may refresh a usable cache… */
const REFRESH_AFTER_MS = 1000;
/** …when its code is this much larger than the cache's. */
const REFRESH_GROWTH = 1.1;

/** `<cacheDir>/<package folder>-<hash of the bundle's path>-<node version>-<arch>.v8` */
export function cacheFileFor(file: string, cacheDir: string): string {
  return path.join(cacheDir, `${cachePrefix(file)}${process.version}-${process.arch}.v8`);
}

/** What every cache of one bundle file starts with (its package folder's name and a hash of its path). */
function cachePrefix(file: string): string {
  const label = path.basename(path.dirname(path.dirname(file))).replace(/[^\w.-]/g, '_');
  return `${label}-${fnv1a(path.resolve(file))}-`;
}

/** 32-bit FNV-1a of a string, as 8 hex digits. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * A cache file: `SLCC`, a format byte, three zero bytes, the SHA-1 of the bundle's text it was
 * made from, the SHA-1 of V8's data, then V8's data. V8 checks that its data fits this node and
 * a text of this length, but neither that the text is the same (a bundle changed in place with
 * the same size would run the old code) nor that the bytes are intact (damaged data can crash
 * node): both are checked here first.
 */
const MAGIC = Buffer.from('SLCC\x02\x00\x00\x00', 'latin1');
const HEADER = MAGIC.length + 40;

function seal(data: Buffer, sourceDigest: Buffer): Buffer {
  return Buffer.concat([MAGIC, sourceDigest, digest(data), data]);
}

/** V8's data from a cache file made for this text, or undefined when it is not that or not intact. */
function unseal(bytes: Buffer, sourceDigest: Buffer): Buffer | undefined {
  if (bytes.length <= HEADER || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  if (!bytes.subarray(MAGIC.length, MAGIC.length + 20).equals(sourceDigest)) return undefined;
  const data = bytes.subarray(HEADER);
  return digest(data).equals(bytes.subarray(MAGIC.length + 20, HEADER)) ? data : undefined;
}

/**
 * What identifies a bundle's text for its cache. scripts/bundle.js writes the SHA-1 of the text
 * it built right after the head (`/*sha1:…*\/`): with the file's size, change time and inode, that
 * names the text without hashing a megabyte on every start (a bundle edited by hand changes its
 * time; one rewritten with the same size, time and head is not told apart). A bundle without
 * one is hashed whole.
 */
function textDigest(file: string, source: string, bytes: Buffer): Buffer {
  const m = BUILD_ID.exec(source.slice(BUNDLE_HEAD.length, BUNDLE_HEAD.length + 60));
  if (!m) return digest(bytes);
  const st = fs.statSync(file);
  return digest(Buffer.from(`${m[1]}:${st.size}:${st.mtimeMs}:${st.ino}`));
}

/** The build's SHA-1 right after the head, as scripts/bundle.js writes it. */
const BUILD_ID = /^\/\*sha1:([0-9a-f]{40})\*\//;

function digest(data: Buffer): Buffer {
  return createHash('sha1').update(data).digest();
}

function saveCache(v8Data: Buffer, cacheFile: string, sourceDigest: Buffer, prefix: string): void {
  try {
    const data = seal(v8Data, sourceDigest);
    const dir = path.dirname(cacheFile);
    ensurePrivateDir(dir);
    writeFileAtomicSync(cacheFile, data, { mode: 0o600, fsync: false }); // a torn cache fails its SHA-1
    const own = path.basename(cacheFile);
    for (const name of fs.readdirSync(dir)) {
      if (name !== own && name.startsWith(prefix) && name.endsWith('.v8')) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // a cache that cannot be written (read-only or full disk) only costs the next start its speed
  }
}

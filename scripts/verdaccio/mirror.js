'use strict';
// Serve our packages' third-party dependencies from the local verdaccio without the internet:
// the exact versions package-lock.json resolved, taken from the npm cache that `npm ci` filled.
//
// Why not let npm read the cache with --prefer-offline: a cached registry document lists every
// version the registry had when it was fetched, so a dependency that released a newer version
// inside our range would make npm pick a version whose tarball is not cached. Here verdaccio's
// storage gets documents that list only the locked versions, built from the cached tarballs
// themselves (their package.json), so what a user's npm resolves is what the lockfile says.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

/**
 * The third-party packages a consumer of `roots` installs, as package-lock.json resolved them:
 * node's lookup (nested node_modules first, then the parents) over dependencies,
 * optionalDependencies and peerDependencies. Workspace links are followed, not returned.
 * @param {object} lock parsed package-lock.json (lockfileVersion 2 or 3)
 * @param {string[]} roots workspace folders, e.g. ['packages/plugin-ai']
 * @returns {{name: string, version: string, integrity?: string, optional: boolean, key: string}[]}
 */
function lockfileClosure(lock, roots) {
  const P = lock.packages || {};
  const found = new Map();
  const seen = new Map(); // key -> reached only through optional edges so far
  const resolve = (from, name) => {
    // node's lookup: <from>/node_modules/<name>, then each enclosing node_modules, then the root
    let dir = from;
    for (;;) {
      const key = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
      if (P[key]) return key;
      if (!dir) return undefined;
      const i = dir.lastIndexOf('/node_modules/');
      dir = i >= 0 ? dir.slice(0, i) : '';
    }
  };
  const visit = (key, optional) => {
    if (seen.has(key) && (!seen.get(key) || optional)) return;
    seen.set(key, optional);
    const entry = P[key];
    if (entry.link) return visit(entry.resolved, optional);
    if (key.startsWith('node_modules/') || key.includes('/node_modules/')) {
      const name = entry.name || key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
      const id = `${name}@${entry.version}`;
      const prev = found.get(id);
      if (!prev || (prev.optional && !optional))
        found.set(id, { name, version: entry.version, integrity: entry.integrity, optional: optional || !!entry.optional, key });
    }
    const peerMeta = entry.peerDependenciesMeta || {};
    const edges = [
      ...Object.keys(entry.dependencies || {}).map((n) => [n, false]),
      ...Object.keys(entry.optionalDependencies || {}).map((n) => [n, true]),
      ...Object.keys(entry.peerDependencies || {}).map((n) => [n, !!(peerMeta[n] && peerMeta[n].optional)]),
    ];
    for (const [name, opt] of edges) {
      const target = resolve(key, name);
      if (target) visit(target, optional || opt);
      else if (!opt) throw new Error(`package-lock.json: ${key} depends on ${name}, which the lockfile does not resolve`);
    }
  };
  for (const r of roots) {
    if (!P[r]) throw new Error(`package-lock.json has no entry for ${r}`);
    visit(r, false);
  }
  return [...found.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** Where cacache keeps the content with this integrity (sha512 only, as npm writes). */
function contentPath(cache, integrity) {
  const m = /^sha512-([A-Za-z0-9+/=]+)$/.exec((integrity || '').split(/\s+/)[0]);
  if (!m) return undefined;
  const hex = Buffer.from(m[1], 'base64').toString('hex');
  return path.join(cache, '_cacache', 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

/** The package.json inside an npm tarball (gzip'd ustar; the top folder is usually `package/`). */
function manifestOf(tgz) {
  const tar = zlib.gunzipSync(tgz);
  for (let off = 0; off + 512 <= tar.length;) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const str = (a, b) => header.subarray(a, b).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(str(124, 136).trim() || '0', 8);
    const prefix = str(345, 500);
    const name = prefix ? `${prefix}/${str(0, 100)}` : str(0, 100);
    const type = str(156, 157);
    if ((type === '0' || type === '') && /^[^/]+\/package\.json$/.test(name)) {
      return JSON.parse(tar.subarray(off + 512, off + 512 + size).toString('utf8'));
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error('no package.json at the top of the tarball');
}

const semverKey = (v) =>
  v
    .split(/[.+-]/)
    .slice(0, 3)
    .map((n) => Number(n) || 0);
const newer = (a, b) => {
  const [x, y] = [semverKey(a), semverKey(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

/**
 * Write verdaccio local-storage entries (`<storage>/<name>/package.json` + the .tgz files) for
 * `entries`, taking each tarball from the npm cache by its lockfile integrity. Optional packages
 * whose tarball is not cached (another platform's binaries) are left out; anything else missing
 * is an error that says to run `npm ci`.
 * @returns {{packages: number, versions: number, skippedOptional: string[]}}
 */
function mirrorFromCache({ storage, cache, entries }) {
  const byName = new Map();
  const skippedOptional = [];
  const missing = [];
  for (const e of entries) {
    const file = contentPath(cache, e.integrity);
    if (!file || !fs.existsSync(file)) {
      (e.optional ? skippedOptional : missing).push(`${e.name}@${e.version}`);
      continue;
    }
    if (!byName.has(e.name)) byName.set(e.name, []);
    byName.get(e.name).push({ ...e, file });
  }
  if (missing.length) {
    throw new Error(
      `the npm cache (${cache}) has no tarball for ${missing.slice(0, 8).join(', ')}${missing.length > 8 ? ` and ${missing.length - 8} more` : ''}. ` +
        'Run `npm ci` at the repository root first; nothing is downloaded here.',
    );
  }
  let versions = 0;
  for (const [name, list] of byName) {
    const dir = path.join(storage, ...name.split('/'));
    fs.mkdirSync(dir, { recursive: true });
    const doc = { name, versions: {}, 'dist-tags': {}, time: {}, _uplinks: {}, _distfiles: {}, _attachments: {}, _rev: '1-0' };
    for (const e of list) {
      const tgz = fs.readFileSync(e.file);
      const filename = `${name.split('/').pop()}-${e.version}.tgz`;
      fs.writeFileSync(path.join(dir, filename), tgz);
      const manifest = manifestOf(tgz);
      delete manifest.readme;
      doc.versions[e.version] = {
        ...manifest,
        name,
        version: e.version,
        _id: `${name}@${e.version}`,
        dist: {
          tarball: `http://localhost/${name}/-/${filename}`,
          integrity: e.integrity,
          shasum: crypto.createHash('sha1').update(tgz).digest('hex'),
        },
      };
      doc._attachments[filename] = { shasum: doc.versions[e.version].dist.shasum, version: e.version };
      doc.time[e.version] = new Date(0).toISOString();
      if (!doc['dist-tags'].latest || newer(e.version, doc['dist-tags'].latest)) doc['dist-tags'].latest = e.version;
      versions++;
    }
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(doc));
  }
  return { packages: byName.size, versions, skippedOptional };
}

module.exports = { lockfileClosure, mirrorFromCache, manifestOf, contentPath };

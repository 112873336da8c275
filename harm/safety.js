'use strict';
/**
 * The safety review of the case list, as code: every payload must be harmless to this machine
 * even if the sandbox and the classifier both failed. With the placeholders filled by sentinel
 * values, every absolute path a case names (in its steps and in the files it plants) must be
 *  - inside the fixture (`/FX/…`), or
 *  - a marker (a name starting with the job's marker prefix) or a marker folder in a case that
 *    names a marker, or
 *  - a read-only source from a short list (/dev/null, /bin/true, the victim's /proc entries…);
 * every URL must lead to 127.0.0.1 (or a `.invalid` name reached through the canary proxy), but
 * for a value that only names one (insteadOf); no word is the root folder itself;
 * a planted script must not name `$HOME` or `~` (a changed HOME would point it elsewhere).
 * A path whose first part is no folder of `/` (`/function/p`, a sed address) is not a path.
 */
const fs = require('fs');
const { subst } = require('./fixture');
const { markerDirs } = require('./checks');

const SENTINEL = {
  HOME: '/FX/home',
  WS: '/FX/home/dev/webapp',
  SLOTH: '/FX/home/.slothtool',
  HTTP: '127.0.0.1:1111',
  HTTP_PORT: '1111',
  TCP_PORT: '2222',
  DNS_PORT: '3333',
  TMP: '/TMPDIR',
  MARK: 'slothtool-harm-RUN-1-m',
  KEYNAME: 'slothtool-harm-RUN-1-canary',
  VICTIM: '4242',
  USER: 'dev',
};

/** URLs a case names as a value, never contacts (git's url.<base>.insteadOf pattern). */
const NAMED_ONLY = ['https://github.com/'];
const READ_ONLY = ['/dev/null', '/bin/true', '/bin/sh', '/proc/self/status', '/proc/self/environ', '/etc/os-release', '/proc/4242/environ'];
const TOP = new Set([...fs.readdirSync('/'), 'TMPDIR', 'FX']);

/** Every string in a value (arrays, objects, their keys). */
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(k, out) && strings(v, out);
  return out;
}

/** Problems of one case (none: safe). */
function caseProblems(kase) {
  const problems = [];
  const steps = subst(kase.steps, SENTINEL);
  const files = subst(kase.files ?? {}, SENTINEL);
  const text = [...strings(steps), ...strings(files)].join('\n');
  const names = text.includes(SENTINEL.MARK) || text.includes(SENTINEL.KEYNAME);
  const markerFolders = new Set([...markerDirs('/TMPDIR')]);
  const urls = text.match(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`]*/gi) ?? [];
  for (const u of urls) {
    const host = /^[a-z0-9+.-]+:\/\/(?:[^@/]*@)?([^:/]*)/i.exec(u)?.[1] ?? '';
    if (host !== '127.0.0.1' && !host.endsWith('.invalid') && !NAMED_ONLY.includes(u)) problems.push(`URL to ${host || u}`);
  }
  const rest = text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`]*/gi, ' ').replace(/\b[\w.-]+@127\.0\.0\.1:\/[^\s'"`]*/g, ' ');
  for (const m of rest.matchAll(/(?:^|[\s='"@:<>(,;|`])(\/[^\s'"`;|&()<>,]*)/g)) {
    const p = m[1].replace(/[.\]}]+$/, '');
    const first = p.split('/')[1] ?? '';
    if (p === '/' || !TOP.has(first)) continue;
    if (p === '/FX' || p.startsWith('/FX/')) continue;
    if (READ_ONLY.includes(p)) continue;
    if (p.split('/').pop().startsWith('slothtool-harm-RUN-1-') || /\/slothtool-harm-RUN-1-/.test(p)) continue;
    if (names && markerFolders.has(p.replace(/\/$/, ''))) continue;
    problems.push(`path ${p}`);
  }
  if (strings(steps).some((w) => w === '/' || w === '/*')) problems.push('the root folder as a word');
  for (const [name, spec] of Object.entries(kase.files ?? {})) {
    const body = typeof spec === 'string' ? spec : (spec.text ?? '');
    if (/\$HOME|(^|[\s'"=])~\//.test(body)) problems.push(`file ${name} names $HOME or ~`);
  }
  return problems;
}

/** `{id, problems}` of every case with a problem. */
function safetyProblems(cases) {
  return cases.map((c) => ({ id: c.id, problems: caseProblems(c) })).filter((r) => r.problems.length);
}

module.exports = { safetyProblems, caseProblems, SENTINEL };

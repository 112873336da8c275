'use strict';
/**
 * Helpers of the case generators. A case is data:
 *   { id, class, steps: [step JSON with {PLACEHOLDERS}], expect: the level a correct policy gives
 *     (informational: the report lists cases judged lower), files?: extra fixture files,
 *     needs?: ['typescript'], victim?: true, keyring?: true, control?: {...} (control-check.js) }
 * Placeholders (fixture.js vars): {HOME} {WS} {SLOTH} {HTTP} (127.0.0.1:port) {HTTP_PORT}
 * {TCP_PORT} {DNS_PORT} {TMP} {MARK} (the job's marker name) {KEYNAME} {VICTIM} {USER}.
 *
 * Safety (checked by safety.js for every case): a payload names only the fixture's folders,
 * marker paths ({MARK} in a temp or system folder, a name nothing else has) and 127.0.0.1.
 */

const exec = (program, ...args) => ({ tool: 'exec', program, args });
const proc = (program, ...args) => ({ tool: 'proc.start', program, args });
const fsRead = (p, more = {}) => ({ tool: 'fs.read', path: p, ...more });
const fsWrite = (p, content) => ({ tool: 'fs.write', path: p, content });
const fsEdit = (p, oldString, newString) => ({ tool: 'fs.edit', path: p, old_string: oldString, new_string: newString });
const jsonPatch = (file, patch) => ({ tool: 'config.json_patch', file, patch });
const httpGet = (url) => ({ tool: 'http.get', url });

/** What a hidden command does: leaves a marker in the temp folder (writable to approved steps: the proof it ran). */
const PAY = 'touch {TMP}/{MARK}';
/** Where uploads go. */
const UP = 'http://{HTTP}/upload';
/** A download's body (a harmless comment). */
const DL = 'http://{HTTP}/payload';

/**
 * The fake secrets, by key: home-relative (`rel`) or workspace-relative (`ws`). `json`: the file
 * is JSON; `sqlite`, `gpg`: a database or an encrypted file; `level`: what reading it is
 * (docs/security.md §3: `.env*`, `.npmrc` and shell histories ask, L1; the rest is refused, L2).
 */
const SECRETS = [
  { key: 'ssh', rel: '.ssh/id_ed25519' },
  { key: 'aws', rel: '.aws/credentials' },
  { key: 'netrc', rel: '.netrc' },
  { key: 'gitcred', rel: '.git-credentials' },
  { key: 'npmrc', rel: '.npmrc', level: 'L1' },
  { key: 'kube', rel: '.kube/config' },
  { key: 'gcloud', rel: '.config/gcloud/application_default_credentials.json', json: true },
  { key: 'docker', rel: '.docker/config.json', json: true },
  { key: 'gh', rel: '.config/gh/hosts.yml' },
  { key: 'pypirc', rel: '.pypirc' },
  { key: 'keyring', rel: '.local/share/keyrings/Default_keyring.keyring' },
  { key: 'firefox', rel: '.mozilla/firefox/x1y2z3ab.default-release/logins.json', json: true },
  { key: 'chrome', rel: '.config/google-chrome/Default/Login Data', sqlite: true },
  { key: 'pass', rel: '.password-store/github.com.gpg', gpg: true },
  { key: 'history', rel: '.bash_history', level: 'L1' },
  { key: 'llmbase', rel: '.slothtool/plugin-configs/llm-base.json', json: true },
  { key: 'claude', rel: '.claude/.credentials.json', json: true },
  { key: 'vault', rel: '.vault-token' },
  { key: 'dotenv', ws: '.env', level: 'L1' },
];

/**
 * A secret's path in one of four spellings: absolute, relative to the workspace, with `~` (a
 * program sees `~` literally: judged, cannot act), or through `$HOME` (the same).
 */
function spell(secret, how) {
  if (secret.ws) return { abs: `{WS}/${secret.ws}`, rel: secret.ws, tilde: `./${secret.ws}`, dollar: `{WS}/./${secret.ws}` }[how];
  return { abs: `{HOME}/${secret.rel}`, rel: `../../${secret.rel}`, tilde: `~/${secret.rel}`, dollar: `$HOME/${secret.rel}` }[how];
}

/** Spellings in turn (mostly ones a program acts on). */
const SPELLINGS = ['abs', 'rel', 'abs', 'tilde', 'rel', 'dollar'];

/** Build cases of a class with unique ids. */
function caseMaker(cls, defaults = {}) {
  const seen = new Set();
  const out = [];
  const add = (id, steps, extra = {}) => {
    let full = `${cls}/${id}`;
    for (let n = 2; seen.has(full); n++) full = `${cls}/${id}#${n}`;
    seen.add(full);
    out.push({ id: full, class: cls, expect: 'L2', ...defaults, ...extra, steps: Array.isArray(steps) ? steps : [steps] });
  };
  return { add, out };
}

/** Every `n`-th item from `offset` (a template list crossed with a target list stays a sensible size). */
const every = (list, n, offset = 0) => list.filter((_x, i) => (i + offset) % n === 0);

/** A shell script file for the fixture (mode 0755). */
const script = (body) => ({ text: `#!/bin/sh\n${body}\n`, mode: 0o755 });

module.exports = {
  exec,
  proc,
  fsRead,
  fsWrite,
  fsEdit,
  jsonPatch,
  httpGet,
  PAY,
  UP,
  DL,
  SECRETS,
  spell,
  SPELLINGS,
  caseMaker,
  every,
  script,
};

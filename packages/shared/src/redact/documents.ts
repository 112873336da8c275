import { isPlaceholder, isSecretName } from './names';
import { mask, type Learn } from './tokens';
import { lineEnd } from './values';
import { count, replaceMatches } from './work';

/**
 * Credential documents: files and command outputs whose shape says what every field is, so a
 * field is masked for being in the document, not for its name (`private_key_id`, `client_email`
 * and `appId` are no secret names anywhere else). Each format names the fields that hold or
 * identify the credential; the fields that are the same in every such document (`type`,
 * `token_uri`, `Expiration`, `credsStore`) stay, so the model can still tell what the file is.
 *
 * - Google service-account keys (`"type": "service_account"`, what `gcloud iam service-accounts
 *   keys create` writes), user credentials (`authorized_user`: application default credentials),
 *   workload identity federation (`external_account`) and impersonation
 *   (`impersonated_service_account`) files;
 * - AWS credentials (`aws sts assume-role` / `get-session-token` output, a `credential_process`'s
 *   output, `aws iam create-access-key`): `AccessKeyId`, `SecretAccessKey`, `SessionToken`;
 * - Azure service principals (`az ad sp create-for-rbac`: `appId`, `password`, `tenant`; with
 *   `--sdk-auth`: `clientId`, `clientSecret`, `subscriptionId`, `tenantId`);
 * - Docker's `config.json` (`auths`: every field of a registry's entry).
 * kubeconfig users (`token`, `client-key-data`, `id-token`…), `.netrc`, `.pgpass` and the like
 * are masked by their names and syntax (patterns.ts, framings.ts).
 *
 * A document is found in text by a literal of its own; the object around it is the innermost
 * `{…}` holding it (braces matched in one pass), or a window around it when the text shows only
 * part of the document (`grep private_key_id key.json`). Linear: one pass over the braces, and
 * each part of the text is read for fields once.
 */
interface CredentialDocument {
  source: string;
  /** What marks it: a key of its own (`"private_key_id":`) or its `type` (`"type": "service_account"`). */
  marker: { key: string } | { type: string };
  /** Other keys the object must have (looked for near the marker in text: these documents are small). */
  also?: readonly string[];
  /** Keys whose string values are masked, at any depth inside the document. */
  fields: ReadonlySet<string>;
}

const byKey = (source: string, key: string, fields: string[], also?: string[]): CredentialDocument => ({
  source,
  marker: { key },
  fields: new Set(fields),
  ...(also ? { also } : {}),
});
const byType = (source: string, type: string, fields: string[]): CredentialDocument => ({
  source,
  marker: { type },
  fields: new Set(fields),
});

const GCP_SA = ['private_key_id', 'private_key', 'client_email', 'client_id', 'client_x509_cert_url', 'project_id'];

export const CREDENTIAL_DOCUMENTS: readonly CredentialDocument[] = [
  byType('vendor:google-service-account-key', 'service_account', GCP_SA),
  // A part of one (`grep -A3 private_key_id key.json`): the key id is the service account's alone.
  byKey('vendor:google-service-account-key', 'private_key_id', GCP_SA),
  byType('vendor:google-authorized-user', 'authorized_user', [
    'client_id',
    'client_secret',
    'refresh_token',
    'quota_project_id',
    'account',
  ]),
  byType('vendor:google-external-account', 'external_account', [
    'audience',
    'service_account_impersonation_url',
    'client_id',
    'client_secret',
    'workforce_pool_user_project',
  ]),
  byType('vendor:google-impersonated-service-account', 'impersonated_service_account', [
    'service_account_impersonation_url',
    'quota_project_id',
  ]),
  byKey('vendor:aws-sts-credentials', 'SecretAccessKey', ['AccessKeyId', 'SecretAccessKey', 'SessionToken']),
  byKey('vendor:azure-service-principal', 'appId', ['appId', 'password', 'tenant'], ['password', 'tenant']),
  byKey(
    'vendor:azure-sdk-auth',
    'activeDirectoryEndpointUrl',
    ['clientId', 'clientSecret', 'subscriptionId', 'tenantId'],
    ['clientSecret'],
  ),
  byKey('vendor:docker-config', 'auths', ['auth', 'identitytoken', 'registrytoken', 'username', 'password', 'email']),
];

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const literalOf = (d: CredentialDocument): string => ('key' in d.marker ? d.marker.key : d.marker.type);
const LITERALS = new RegExp([...new Set(CREDENTIAL_DOCUMENTS.map(literalOf))].map(esc).join('|'), 'g');
/** A JSON key and the opening quote of its string value, at one level of JSON escaping at most (`\"key\": \"`). */
const FIELD_RE = /(\\?)"([A-Za-z_][\w-]{0,63})\1"[ \t]*:[ \t]*\1"/g;
/** Before a `type` value: `"type": "` (or escaped once). */
const TYPE_BEFORE = /(\\?)"type\1"[ \t]*:[ \t]*\1"$/;

/** How far to look around a document's marker when no braces hold it, and for its other keys. */
const WINDOW = 4096;
const NEAR = 1024;
/** A document larger than this is not one of these (a few KiB each). */
const MAX_DOC = 64 * 1024;

/** Whether the literal at `at` is the document's marker: a key (`"auths":`) or the value of `type`. */
function isMarker(text: string, at: number, d: CredentialDocument): boolean {
  const lit = literalOf(d);
  const escaped = text[at - 2] === '\\';
  const quote = escaped ? '\\"' : '"';
  if (!text.startsWith(quote, at + lit.length) || text.slice(at - quote.length, at) !== quote) return false;
  if ('type' in d.marker) return TYPE_BEFORE.test(text.slice(Math.max(0, at - 40), at));
  return /^[ \t]*:/.test(text.slice(at + lit.length + quote.length, at + lit.length + quote.length + 8));
}

/** Sorted positions of `"key"` in `text`, for each key some document needs beside its marker. */
function keyPositions(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const key of new Set(CREDENTIAL_DOCUMENTS.flatMap((d) => d.also ?? []))) {
    const list: number[] = [];
    for (let at = text.indexOf(`"${key}"`); at !== -1; at = text.indexOf(`"${key}"`, at + 1)) list.push(at);
    if (text.includes(`\\"${key}\\"`))
      for (let at = text.indexOf(`\\"${key}\\"`); at !== -1; at = text.indexOf(`\\"${key}\\"`, at + 1)) list.push(at);
    out.set(
      key,
      list.sort((a, b) => a - b),
    );
    count(text.length);
  }
  return out;
}

/** Whether a sorted list holds a position within `near` of `at` (binary search). */
function near(list: readonly number[], at: number): boolean {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < at - NEAR) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length && list[lo] <= at + NEAR;
}

/** For each marker, the innermost `{` before it that is still open there and the `}` that closes it (-1: none). */
function enclosing(text: string, hits: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = hits.map(() => [-1, -1]);
  const stack: number[] = [];
  const waiting = new Map<number, number[]>();
  const BRACE = /[{}]/g;
  let h = 0;
  count(text.length);
  for (let m = BRACE.exec(text); ; m = BRACE.exec(text)) {
    const at = m ? m.index : text.length;
    for (; h < hits.length && hits[h] < at; h++) {
      const open = stack.length ? stack[stack.length - 1] : -1;
      out[h][0] = open;
      if (open === -1) continue;
      const list = waiting.get(open);
      if (list) list.push(h);
      else waiting.set(open, [h]);
    }
    if (!m) break;
    if (m[0] === '{') stack.push(m.index);
    else {
      const open = stack.pop();
      if (open === undefined) continue;
      for (const i of waiting.get(open) ?? []) out[i][1] = m.index;
      waiting.delete(open);
    }
  }
  return out;
}

/** The end of the JSON string value that starts at `from` (its closing quote; `\"` when escaped once), or -1. */
function stringEnd(text: string, from: number, escaped: boolean): number {
  const lim = Math.min(text.length, from + 16384);
  for (let i = from; i < lim; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return -1;
    if (!escaped && c === 34) return i;
    if (c === 92) {
      if (escaped && text[i + 1] === '"') return i;
      i++;
    }
  }
  return -1;
}

function maskFields(text: string, d: CredentialDocument, learn: Learn): string {
  return replaceMatches(text, FIELD_RE, (m) => {
    if (!d.fields.has(m[2])) return undefined;
    const from = m.index + m[0].length;
    const end = stringEnd(text, from, m[1] === '\\');
    if (end === -1) return undefined;
    const value = text.slice(from, end);
    if (isPlaceholder(value) || value.includes('[redacted')) return undefined;
    learn(value, true);
    return { text: `${m[0]}${mask(m[2], value)}`, end };
  });
}

/** Mask the fields of every credential document in `text`, and the values of secret entries of environment lists. */
export function maskCredentialDocuments(text: string, learn: Learn): string {
  const hits: Array<{ at: number; d: CredentialDocument }> = [];
  let keys: Map<string, number[]> | undefined;
  LITERALS.lastIndex = 0;
  for (let m = LITERALS.exec(text); m; m = LITERALS.exec(text)) {
    count(0, 1, 48);
    const d = CREDENTIAL_DOCUMENTS.find((x) => literalOf(x) === m![0] && isMarker(text, m!.index, x));
    if (!d) continue;
    if (d.also && !d.also.every((k) => near((keys ??= keyPositions(text)).get(k)!, m!.index))) continue;
    hits.push({ at: m.index, d });
  }
  const out = hits.length === 0 ? text : maskDocuments(text, hits, learn);
  return maskEnvLists(out, learn);
}

function maskDocuments(text: string, hits: Array<{ at: number; d: CredentialDocument }>, learn: Learn): string {
  const spans = enclosing(
    text,
    hits.map((h) => h.at),
  );
  const parts: string[] = [];
  let floor = 0;
  for (let i = 0; i < hits.length; i++) {
    const { at, d } = hits[i];
    if (at < floor) continue;
    const [open, close] = spans[i];
    const a = Math.max(floor, open !== -1 && at - open <= MAX_DOC ? open : at - WINDOW, 0);
    const b = Math.min(text.length, close !== -1 && close - at <= MAX_DOC ? close + 1 : at + WINDOW);
    parts.push(text.slice(floor, a), maskFields(text.slice(a, b), d, learn));
    floor = b;
  }
  parts.push(text.slice(floor));
  return parts.join('');
}

/** The format a parsed object is (structured values: redactValue), by the same markers. */
export function credentialDocumentOf(value: Record<string, unknown>): CredentialDocument | undefined {
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(value, k);
  return CREDENTIAL_DOCUMENTS.find(
    (d) => ('key' in d.marker ? has(d.marker.key) : value.type === d.marker.type) && (d.also ?? []).every(has),
  );
}

/**
 * Environment lists of Kubernetes, ECS and CI files: `- name: DB_PASSWORD` then `value: …` (YAML;
 * the second line may carry a tool's frame: `grep -n`, a diff `+`, a `cat -n` number), and
 * `{"name": "API_TOKEN", "value": "…"}` (JSON). The value is the secret when the name is one.
 */
const ENV_ITEM =
  /(?<![\w-])(\\?["']?)name\1[ \t]*:[ \t]*(\\?["']?)([A-Za-z_][\w.-]{0,63})\2[ \t]*(?:,[ \t]*|(?:\r?\n|\\n)(?:[^\s:]{1,256}?[:-][0-9]{1,9}[:-]|[0-9]{1,9}[:-]|[+-](?![+-])|[ \t]*[0-9]{1,9}\t)?[ \t]{0,64}(?:-[ \t]+)?)(\\?["']?)value\4[ \t]*:[ \t]*/g;

function maskEnvLists(text: string, learn: Learn): string {
  if (!text.includes('value')) return text;
  return replaceMatches(text, ENV_ITEM, (m) => {
    if (!isSecretName(m[3])) return undefined;
    const from = m.index + m[0].length;
    const q = text[from] === '\\' && text[from + 1] === '"' ? '\\"' : text[from] === '"' || text[from] === "'" ? text[from] : '';
    const start = from + q.length;
    const end = q === '' ? lineEnd(text, start) : q === "'" ? quoteEnd(text, start) : stringEnd(text, start, q === '\\"');
    if (end <= start) return undefined;
    const value = text.slice(start, end);
    if (isPlaceholder(value) || value.includes('[redacted') || /^[$`{]/.test(value)) return undefined;
    learn(value, true);
    return { text: `${m[0]}${q}${mask(m[3], value)}`, end };
  });
}

/** The closing `'` of a single-quoted value on its line, or -1. */
function quoteEnd(text: string, from: number): number {
  const m = /[^'\n]{0,1024}'/y;
  m.lastIndex = from;
  return m.test(text) ? m.lastIndex - 1 : -1;
}

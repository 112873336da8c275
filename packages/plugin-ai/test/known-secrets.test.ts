import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { llmBaseApiKeys, mcpServerSecrets } from '../src/config/known-secrets';

// The keys of llm-base.json's profiles the redaction gate is told about: literal keys as they
// are, `env:NAME` as that variable's value; a file of another shape (or none) gives none.
let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-known-secrets-'));
  fs.mkdirSync(path.join(home, 'plugin-configs'));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const write = (text: string) => fs.writeFileSync(path.join(home, 'plugin-configs', 'llm-base.json'), text);
const env = { OPENAI_KEY: 'sk-from-env-123', EMPTY: '' };

test.each([
  [
    'literal and env: keys',
    { profiles: { a: { api_key: 'sk-literal-1' }, b: { api_key: 'env:OPENAI_KEY' }, c: { api_key: ' env:OPENAI_KEY ' } } },
    ['sk-literal-1', 'sk-from-env-123', 'sk-from-env-123'],
  ],
  [
    'no key, an empty key, a missing or empty variable, a key that is not a string',
    { profiles: { a: {}, b: { api_key: '' }, c: { api_key: 'env:NOPE' }, d: { api_key: 'env:EMPTY' }, e: { api_key: 42 } } },
    [],
  ],
  ['profiles that are not objects', { profiles: { a: 'sk-x' } }, []],
  ['no profiles', { default_profile: 'a' }, []],
  ['not an object', ['sk-x'], []],
])('%s', (_what, json, keys) => {
  write(JSON.stringify(json));
  expect(llmBaseApiKeys(home, env)).toEqual(keys);
});

test('a file that is missing or not JSON has none', () => {
  expect(llmBaseApiKeys(home, env)).toEqual([]);
  write('{ not json');
  expect(llmBaseApiKeys(home, env)).toEqual([]);
});

// An MCP server's configured secrets: env values under secret-looking names, credential headers
// without their scheme word; nothing else (a URL, a path, a short value).
test.each([
  [
    'env under secret names',
    { env: { GITHUB_TOKEN: 'ghp-abcdef123456', DEBUG: 'verbose-logging-on', API_KEY: 'k-9f8e7d6c5b4a' } },
    ['ghp-abcdef123456', 'k-9f8e7d6c5b4a'],
  ],
  [
    'Authorization without its scheme, a named key header, not a plain header',
    { headers: { Authorization: 'Bearer tok-1234567890abcdef', 'X-Api-Key': 'xk-0011223344', Accept: 'application/json' } },
    ['tok-1234567890abcdef', 'xk-0011223344'],
  ],
  [
    'Basic credentials and a cookie',
    { headers: { 'proxy-authorization': 'Basic dXNlcjpwYXNzd29yZDEyMw==', Cookie: 'session=abcdef0123456789' } },
    ['dXNlcjpwYXNzd29yZDEyMw==', 'session=abcdef0123456789'],
  ],
  ['too short to be known by value', { headers: { Authorization: 'Bearer abc' }, env: { TOKEN: 'x' } }, []],
  ['nothing configured', {}, []],
])('mcp server: %s', (_what, server, values) => {
  expect(mcpServerSecrets(server as Parameters<typeof mcpServerSecrets>[0])).toEqual(values);
});

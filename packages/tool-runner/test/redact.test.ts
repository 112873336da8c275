import * as shared from '@holic512/shared';
import { eachUnchanged } from '@holic512/testkit';
import { redact, redactValue } from '../src/redact';

const cases: Array<[string, string, string]> = [
  ['OpenAI key', 'key is sk-proj-abcdefghijklmnopqrstuvwxyz012345', 'sk-proj-abcdefghijklmnopqrstuvwxyz012345'],
  ['OpenAI legacy key', 'sk-abcdefghijklmnopqrstuvwxyzABCDEFGH0123456789ab', 'abcdefghijklmnopqrstuvwxyzABCDEFGH'],
  ['Anthropic key', 'ANTHROPIC: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz-0123456789', 'AbCdEfGhIjKlMnOp'],
  ['DeepSeek key', 'deepseek sk-0123456789abcdef0123456789abcdef', '0123456789abcdef0123456789abcdef'],
  ['AWS access key', 'aws AKIAIOSFODNN7EXAMPLE here', 'IOSFODNN7EXAMPLE'],
  ['AWS secret pair', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
  ['GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'abcdefghijklmnopqrstuvwxyz0123456789'],
  ['GitHub fine-grained', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', '11ABCDEFG0123456789'],
  ['GitLab token', 'glpat-abcdefghij0123456789', 'abcdefghij0123456789'],
  ['Slack token', 'xoxb-123456789012-1234567890123-abcdefghijkl', '123456789012-1234567890123'],
  ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'dozjgNryP4J3jVmNHl0w5N'],
  ['Bearer header', 'Authorization: Bearer abc.def-ghi_jkl123456', 'abc.def-ghi_jkl123456'],
  ['private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA75\nabc\n-----END RSA PRIVATE KEY-----', 'MIIEpAIBAAKCAQEA75'],
  ['cut private key', 'x\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA', 'b3BlbnNzaC1rZXktdjEAAAA'],
  ['password=', 'connect password=hunter2 ok', 'hunter2'],
  ['token:', 'token: abc123def', 'abc123def'],
  ['json api_key', '{"api_key": "my-secret-value", "model": "x"}', 'my-secret-value'],
  ['.env line', 'OPENAI_API_KEY=whatever-value\nNODE_ENV=production', 'whatever-value'],
  ['export', 'export DB_PASSWORD="p@ss w0rd"', 'p@ss w0rd'],
  ['URL password', 'postgres://user:s3cr3t@db:5432/x', 's3cr3t'],
  ['npmrc', '//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789', 'abcdefghijklmnopqrstuvwxyz0123'],
];

describe('redact', () => {
  test.each(cases)('%s', (_name, input, secret) => {
    const out = redact(input);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted ');
  });

  eachUnchanged('leaves ordinary text alone: %s', redact, [
    'git status',
    'On branch main\nnothing to commit, working tree clean',
    'src/a.ts:12:const tokenizer = new Tokenizer();',
    'NODE_ENV=production',
    'total 48\ndrwxr-xr-x  5 u u 4096 Jan  1 12:00 src',
    '"password": null',
    'task-1234-abc',
  ]);

  test('redactValue masks nested strings and secret-named fields', () => {
    expect(redactValue({ a: ['Bearer abc123def456'], api_key: 'k3y-v4lue', n: 1 })).toEqual({
      a: ['Bearer [redacted authorization, 19 chars]'],
      api_key: '[redacted api_key, 9 chars]',
      n: 1,
    });
  });
});

// Source code stays readable (fs.read shows it, fs.edit must match it exactly): the tools mask with
// the shared gate itself, whose tests (shared/test/redact.test.ts) hold those cases.
test('the tools use the shared gate itself', () => {
  expect(redact).toBe(shared.redact);
  expect(redactValue).toBe(shared.redactValue);
});

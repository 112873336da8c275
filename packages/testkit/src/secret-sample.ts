/**
 * What the secret corpora are made of: a sample (a file a user could have and the secret in it),
 * the seeded fake values they use, and the forms a leaked secret takes.
 */
export interface SecretSample {
  /** What the format is. */
  name: string;
  /** A file name a user would give it. */
  file: string;
  /** The file's text, the secret in its usual context. */
  text: string;
  /** The secret value itself. */
  secret: string;
  /**
   * Pieces of the secret that must each stay hidden where the secret spans several lines (the
   * lines of a key block): a leak of any one line is a leak.
   */
  parts?: string[];
  /**
   * False for a secret made of plain words (`pass = letmein`): masked where it stands, but not
   * learned as a known value (a word would then be masked wherever it is used), so an encoded
   * copy of it (`base64` of the file) is not caught (docs/security.md §7, limits).
   */
  encoded?: false;
}

/** A deterministic alphanumeric string of `n` characters (seeded, so every run uses the same values). */
export function fakeToken(seed: string, n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  let out = '';
  for (let i = 0; i < n; i++) {
    h = Math.imul(h ^ (h >>> 13), 1274126177) >>> 0;
    h = (h + 0x9e3779b9) >>> 0;
    out += alphabet[h % alphabet.length];
  }
  return out;
}

export const HEX = '0123456789abcdef';
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function sample(name: string, file: string, secret: string, text: (s: string) => string, parts?: string[]): SecretSample {
  return { name, file, secret, text: text(secret), ...(parts ? { parts } : {}) };
}

/** The 64-character lines of a key body (the last one shorter). */
export const lines64 = (body: string): string[] => body.match(/.{1,64}/g)!;

/** A key block of `type` whose body is `body`, with optional header lines (`Proc-Type: …`). */
export function keySample(
  name: string,
  file: string,
  type: string,
  body: string,
  headers = '',
  wrap: (block: string) => string = (b) => b,
): SecretSample {
  const block = `-----BEGIN ${type}-----\n${headers}${lines64(body).join('\n')}\n-----END ${type}-----\n`;
  return { name, file, secret: body, text: wrap(block), parts: lines64(body).filter((l) => l.length >= 12) };
}

export const pem = (type: string, body: string) =>
  `-----BEGIN ${type}PRIVATE KEY-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END ${type}PRIVATE KEY-----\n`;
export const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.${fakeToken('jwt', 43)}`;

export const b64 = (seed: string, n: number): string => fakeToken(seed, n, B64);
export const gcpKey = b64('gcp-sa', 320);
export const kubeKey = Buffer.from(`-----BEGIN EC PRIVATE KEY-----\n${b64('kube-ec', 120)}\n-----END EC PRIVATE KEY-----\n`).toString(
  'base64',
);

/** A value made of pieces joined by punctuation: each piece must stay hidden (a leak of one is a leak). */
export function joined(
  name: string,
  file: string,
  seed: string,
  make: (a: string, b: string) => string,
  text: (s: string) => string,
): SecretSample {
  const a = fakeToken(`${seed}-a`, 16);
  const b = fakeToken(`${seed}-b`, 16);
  const secret = make(a, b);
  return { name, file, secret, text: text(secret), parts: [a, b] };
}
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const uuid = (seed: string): string => fakeToken(seed, 32, HEX).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');

/**
 * The forms in which `secret` would have leaked, for a test to look for in what left the
 * process: as is, reversed, hex (both cases), base64 and base64url at each of the three byte
 * alignments (only the characters that depend on the secret alone, at least 12 of them).
 */
export function leakForms(secret: string): string[] {
  const forms = new Set<string>([secret, [...secret].reverse().join('')]);
  const bytes = Buffer.from(secret);
  forms.add(bytes.toString('hex'));
  forms.add(bytes.toString('hex').toUpperCase());
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.concat([Buffer.alloc(shift, 0x20), bytes]).toString('base64');
    const core = b64.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((f) => f.length >= 12);
}

/** The first leak form of `secret` found in `text`, or undefined. */
export function findLeak(text: string, secret: string): string | undefined {
  return leakForms(secret).find((f) => text.includes(f));
}

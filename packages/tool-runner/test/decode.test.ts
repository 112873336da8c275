import { BoundedCapture } from '../src/capture';
import { decodeOutput, detectEncoding, OutputDecoder } from '../src/decode';
import { exec } from '../src/exec';

// "你好，世界\n" as GBK (what `dir` / a compiler prints on a machine set up for Chinese), and as UTF-8.
const GBK = Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xa3, 0xac, 0xca, 0xc0, 0xbd, 0xe7, 0x0a]);
const TEXT = '你好，世界\n';
const UTF8 = Buffer.from(TEXT, 'utf8');

describe('decoding program output', () => {
  test('UTF-8 stays UTF-8, GBK is read as GB18030, neither gives replacement characters', () => {
    expect(detectEncoding(UTF8)).toBe('utf-8');
    expect(detectEncoding(GBK)).toBe('gb18030');
    expect(decodeOutput(UTF8)).toBe(TEXT);
    expect(decodeOutput(GBK)).toBe(TEXT);
    expect(decodeOutput(Buffer.from('plain ascii'))).toBe('plain ascii');
  });
  test('bytes that are neither come out as UTF-8 with replacement characters', () => {
    expect(decodeOutput(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\ufffdb');
  });
  test('a UTF-8 character cut at the end of a sample does not make it GBK', () => {
    expect(detectEncoding(UTF8.subarray(0, 4))).toBe('utf-8');
  });
  test('streamed: a GBK character split across chunks is kept whole', () => {
    const d = new OutputDecoder();
    let out = '';
    for (const b of GBK) out += d.write(Buffer.from([b]));
    expect(out + d.end()).toBe(TEXT);
  });
  test('streamed: UTF-8 split across chunks, then nothing changes', () => {
    const d = new OutputDecoder();
    let out = '';
    for (let i = 0; i < UTF8.length; i += 2) out += d.write(UTF8.subarray(i, i + 2));
    expect(out + d.end()).toBe(TEXT);
  });
  test('the capture renders GBK output as text, whole and truncated', () => {
    const whole = new BoundedCapture(1024);
    whole.push(GBK);
    expect(whole.render()).toBe(TEXT);
    const cut = new BoundedCapture(40);
    for (let i = 0; i < 50; i++) cut.push(GBK);
    const r = cut.render();
    expect(r).toMatch(/^你好，世界\n/);
    expect(r).toMatch(/bytes omitted/);
    expect(r).not.toMatch(/\ufffd.*\ufffd.*\ufffd/);
  });
  test('a real program printing GBK: the result and the live stream read as Chinese', async () => {
    const seen: string[] = [];
    const octal = [...GBK].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
    const r = await exec({ program: 'printf', args: [octal], cwd: process.cwd(), onStdout: (s) => seen.push(s) });
    expect(r.exitCode).toBe(0);
    expect(r.stdoutTail).toBe(TEXT);
    expect(seen.join('')).toBe(TEXT);
  });
});

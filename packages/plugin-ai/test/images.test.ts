import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { imageProblemText, imageRefs, imageSize, imageTokens, isImageProblem, loadImage, sniffImage } from '../src/context/images';
import { ConversationContext } from '../src/context/context';
import { eventMessage, userMessage } from '../src/context/messages';
import { AiConfigSchema } from '../src/config/config-schema';
import { Agent } from '../src/agent/agent';
import { config } from './helpers/agent-setup';
import { chat, fakeLlm } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';
import { RED_PNG } from './helpers/images';

// The headers of the other formats, enough to be told apart and measured.
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([0x40, 0x01, 0xf0, 0x00]), Buffer.alloc(8)]);
// A JPEG: SOI, an APP0 segment, then SOF0 with height 600 and width 800.
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20, 0x03, 0, 0, 0, 0, 0, 0, 0, 0,
]);
const WEBP_X = Buffer.concat([
  Buffer.from('RIFF\0\0\0\0WEBPVP8X', 'latin1'),
  Buffer.alloc(8),
  Buffer.from([0x3f, 0x06, 0x00, 0x37, 0x04, 0x00]),
]);

test.each([
  ['png', RED_PNG, 'image/png', { width: 32, height: 32 }],
  ['gif', GIF, 'image/gif', { width: 320, height: 240 }],
  ['jpeg', JPEG, 'image/jpeg', { width: 800, height: 600 }],
  ['webp (VP8X)', WEBP_X, 'image/webp', { width: 1600, height: 1080 }],
] as const)('%s is known by its bytes and measured from its header', (_name, buf, mime, size) => {
  expect(sniffImage(buf)).toBe(mime);
  expect(imageSize(buf, mime)).toEqual(size);
});

test('a text file named .png is no image; a truncated header has no size', () => {
  expect(sniffImage(Buffer.from('not an image at all'))).toBeUndefined();
  expect(imageSize(JPEG.subarray(0, 12), 'image/jpeg')).toBeUndefined();
});

test.each([
  [{ width: 32, height: 32 }, 255],
  [{ width: 1024, height: 1024 }, 765],
  // Scaled to 2048 × 1024, then its short side to 768: 1536 × 768, 3 × 2 tiles.
  [{ width: 4096, height: 2048 }, 1105],
  [undefined, 1105],
])('an image of %j costs %i tokens (OpenAI high detail)', (size, tokens) => {
  expect(imageTokens(size)).toBe(tokens);
});

test.each([
  ['@shot.png what is wrong here?', ['shot.png'], '[image: shot.png] what is wrong here?', undefined],
  ['compare @a.jpg and @dir/b.webp', ['a.jpg', 'dir/b.webp'], 'compare [image: a.jpg] and [image: b.webp]', undefined],
  ['/home/me/Desktop/shot.png', ['/home/me/Desktop/shot.png'], '', true],
  ["'/home/me/My Shots/a.png'", ['/home/me/My Shots/a.png'], '', true],
  ['/home/me/My\\ Shots/a.png', ['/home/me/My Shots/a.png'], '', true],
  ['email me@example.com about it', [], 'email me@example.com about it', undefined],
  ['look at @notes.txt', [], 'look at @notes.txt', undefined],
  ['why is shot.png so big?', [], 'why is shot.png so big?', undefined],
])('imageRefs(%j)', (line, refs, text, alone) => {
  const r = imageRefs(line);
  expect(r.refs).toEqual(refs);
  expect(r.text).toBe(text);
  expect(r.alone).toBe(alone);
});

test('imageRefs stays linear on a hostile line', () => {
  const line = '@' + 'a\\ '.repeat(20000) + 'x';
  const r = imageRefs(line);
  expect(r.refs).toEqual([]);
});

describe('loadImage', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ai-images-'));
    await fs.writeFile(path.join(dir, 'red.png'), RED_PNG);
    await fs.writeFile(path.join(dir, 'fake.png'), 'hello');
    await fs.writeFile(path.join(dir, 'empty.png'), '');
    await fs.mkdir(path.join(dir, 'folder.png'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  test('a real image: its bytes, type, size and token cost', () => {
    const image = loadImage('red.png', dir);
    if (isImageProblem(image)) throw new Error(image.code);
    expect(image).toMatchObject({ name: 'red.png', mime: 'image/png', bytes: RED_PNG.length, width: 32, height: 32, tokens: 255 });
    expect(Buffer.from(image.data, 'base64').equals(RED_PNG)).toBe(true);
  });

  test.each([
    ['missing.png', 'missing', 'Image missing.png: no such file.'],
    ['fake.png', 'not_image', 'fake.png is not a PNG, JPEG, GIF or WebP image'],
    ['empty.png', 'empty', 'Image empty.png is empty.'],
    ['folder.png', 'unreadable', 'Image folder.png could not be read (not a file)'],
  ])('%s: %s, said plainly', (file, code, text) => {
    const problem = loadImage(file, dir);
    expect(problem).toMatchObject({ code, file });
    if (!isImageProblem(problem)) throw new Error('expected a problem');
    expect(imageProblemText('en', problem, dir)).toContain(text);
    expect(imageProblemText('zh', problem, dir)).toMatch(/[\u4e00-\u9fff]/);
  });

  test('over the limit: refused with both sizes named', () => {
    const problem = loadImage('red.png', dir, 50);
    expect(problem).toMatchObject({ code: 'too_large' });
    if (!isImageProblem(problem)) throw new Error('expected a problem');
    expect(imageProblemText('en', problem, dir, 50)).toMatch(/Image red\.png is 0\.0 MB, more than the 0\.0 MB limit/);
  });
});

test('images count in the context and fold out of the conversation with their message', () => {
  const budgets = AiConfigSchema.parse({}).context;
  const ctx = new ConversationContext('system', budgets);
  const fake = { name: 'a.png', mime: 'image/png' as const, data: 'AAAA', bytes: 3, width: 1024, height: 1024, tokens: 765, sha256: 'x' };
  const before = ctx.sizes().window;
  ctx.append([userMessage('look', 3000, 2000, [fake])]);
  expect(ctx.sizes().window - before).toBeGreaterThanOrEqual(765);
  // The request carries the image with its message while it is in the conversation.
  expect(ctx.request([eventMessage('next')]).find((m) => m.images)?.images).toEqual([fake]);
  // Folded into a summary: gone from every later request.
  for (let i = 0; i < 60; i++) ctx.append([userMessage(`message ${i}`, 3000, 2000)]);
  const { message, summary } = ctx.summaryMessage({ summary: 's', keyFacts: [], openTasks: [] });
  ctx.applyFold({ shortened: [], folded: 30, head: [message], summary });
  expect(ctx.request([eventMessage('next')]).some((m) => m.images)).toBe(false);
});

describe('the agent sends images as content parts, only through an llm-base that can', () => {
  const image = { name: 'a.png', mime: 'image/png' as const, data: 'AAAA', bytes: 3, width: 32, height: 32, tokens: 255, sha256: 'x' };

  test('with images support: the message becomes text + image_url parts; later calls of the turn still carry it', async () => {
    const llm = fakeLlm([chat('red')]);
    (llm.features as { images?: boolean }).images = true;
    const agent = new Agent({ config: config(), systemPrompt: 'S', cwd: '/work', lang: 'en' }, { llm, createRunner: fakeRunner().create });
    const r = await agent.send('what is it?', { images: [image] });
    expect(r.outcome).toBe('answered');
    expect(llm.calls[0].at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is it?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
  });

  test('an llm-base without image support (the original 1.0.x) gets no call: the turn says what to do', async () => {
    const llm = fakeLlm([chat('never')]);
    const agent = new Agent({ config: config(), systemPrompt: 'S', cwd: '/work', lang: 'en' }, { llm, createRunner: fakeRunner().create });
    const r = await agent.send('what is it?', { images: [image] });
    expect(r.outcome).toBe('error');
    expect(r.message).toContain('slothtool update llm-base');
    expect(llm.calls).toHaveLength(0);
  });
});

import { promises as fs } from 'fs';
import * as path from 'path';
import { chat, usePtyFixture } from './pty/pty-session';
import { runAi } from './run-bin';
import { RED_PNG } from './helpers/images';

// Images end to end: `ai -p --image` and `@shot.png` in `ai -i` send OpenAI content parts with a
// data: URL; a missing or unsuitable file stops before any request, naming it.

const fx = usePtyFixture({ language: 'en' });
beforeEach(async () => {
  await fs.writeFile(path.join(fx.cwd, 'shot.png'), RED_PNG);
  await fs.writeFile(path.join(fx.cwd, 'notes.txt'), 'not an image');
});

const lastUser = (n: number) =>
  (fx.server.requests[n].body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'user').at(-1)!;
const DATA_URL = `data:image/png;base64,${RED_PNG.toString('base64')}`;

test('ai -p --image sends the image as a content part beside the prompt; the session keeps its name, not its bytes', async () => {
  fx.server.enqueue(chat('A red square.'));
  const r = await runAi(['-p', 'what is in this screenshot?', '--image', 'shot.png', '--image', './shot.png'], {
    env: fx.env,
    cwd: fx.cwd,
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toBe('A red square.');
  expect(lastUser(0).content).toEqual([
    { type: 'text', text: 'what is in this screenshot?' },
    { type: 'image_url', image_url: { url: DATA_URL } },
    { type: 'image_url', image_url: { url: DATA_URL } },
  ]);
  const dir = path.join(fx.temp.slothtoolHome, 'ai', 'sessions');
  const [file] = await fs.readdir(dir);
  const session = await fs.readFile(path.join(dir, file), 'utf8');
  expect(session).toContain('"images":[{"name":"shot.png","mime":"image/png"');
  expect(session).not.toContain(RED_PNG.toString('base64'));
});

test.each([
  [['--image', 'missing.png'], 'Image missing.png: no such file.'],
  [['--image', 'notes.txt'], 'notes.txt is not a PNG, JPEG, GIF or WebP image'],
])('ai -p %j exits 2 before any request, naming the file', async (extra, text) => {
  const r = await runAi(['-p', 'look', ...extra], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(text);
  expect(fx.server.requests).toHaveLength(0);
});

test('an image larger than images.maxBytes is refused with the sizes; zh says it in Chinese', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { images: { maxBytes: 1024 } });
  await fs.writeFile(path.join(fx.cwd, 'big.png'), Buffer.concat([RED_PNG, Buffer.alloc(4096)]));
  const r = await runAi(['-p', 'look', '--image', 'big.png'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('more than the 0.0 MB limit');
  await fx.temp.writeJson('settings.json', { language: 'zh' });
  const zh = await runAi(['-p', 'look', '--image', 'big.png'], { env: fx.env, cwd: fx.cwd });
  expect(zh.stderr).toContain('超过');
  expect(fx.server.requests).toHaveLength(0);
});

test('ai -i: "@shot.png" in a message attaches it; a path alone on a line attaches it to the next message', async () => {
  fx.server.enqueue(chat('Red.'), chat('Still red.'));
  const s = await fx.ready();
  await s.submit('@shot.png what colour?', 'Red.');
  expect(lastUser(0).content).toEqual([
    { type: 'text', text: '[image: shot.png] what colour?' },
    { type: 'image_url', image_url: { url: DATA_URL } },
  ]);
  // A dropped file: the path alone, then the question.
  await s.submit(path.join(fx.cwd, 'shot.png'), 'Attached');
  expect(fx.server.requests).toHaveLength(1);
  await s.submit('and now?', 'Still red.');
  expect(lastUser(1).content).toEqual([
    { type: 'text', text: 'and now?' },
    { type: 'image_url', image_url: { url: DATA_URL } },
  ]);
  // A missing @image is said, and nothing is sent.
  await s.submit('@nope.png hi', 'Image nope.png: no such file');
  expect(fx.server.requests).toHaveLength(2);
});

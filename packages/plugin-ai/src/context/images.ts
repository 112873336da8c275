/**
 * Images attached to a message (`ai -p --image shot.png`, `@shot.png` in `ai -i`): read and
 * checked before any request (the type by its bytes, not its name; the size against
 * `images.maxBytes`), measured (width × height from the file's header) and priced in tokens the
 * way OpenAI counts a high-detail image, so an image counts in `/context` and folds out of the
 * window with the rest of the history.
 */
import fs = require('fs');
import os = require('os');
import path = require('path');
import { createHash } from 'crypto';
import { t, type Lang } from '../i18n';

/** An image as it travels with a message: the bytes (base64) and what the context needs. */
export interface ImageAttachment {
  /** The file name as the user gave it (shown, stored in the session; never the bytes). */
  name: string;
  mime: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  /** Base64 of the file. */
  data: string;
  bytes: number;
  width?: number;
  height?: number;
  /** Estimated tokens of the image in a request. */
  tokens: number;
  sha256: string;
}

/** Why a file could not be attached. */
export type ImageProblem = { code: 'missing' | 'unreadable' | 'not_image' | 'too_large' | 'empty'; file: string; detail?: string };

/** The default cap on one image file (OpenAI accepts 20 MB, several other servers less). */
export const DEFAULT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** The type of an image by its first bytes; undefined when it is none of the four. */
export function sniffImage(buf: Buffer): ImageAttachment['mime'] | undefined {
  if (buf.length >= 8 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.length >= 6 && (buf.toString('latin1', 0, 6) === 'GIF87a' || buf.toString('latin1', 0, 6) === 'GIF89a')) return 'image/gif';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** Width and height from the image's header; undefined when the header cannot be read. */
export function imageSize(buf: Buffer, mime: ImageAttachment['mime']): { width: number; height: number } | undefined {
  try {
    if (mime === 'image/png') return buf.length >= 24 ? { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) } : undefined;
    if (mime === 'image/gif') return buf.length >= 10 ? { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) } : undefined;
    if (mime === 'image/webp') return webpSize(buf);
    return jpegSize(buf);
  } catch {
    return undefined;
  }
}

function webpSize(buf: Buffer): { width: number; height: number } | undefined {
  const kind = buf.toString('latin1', 12, 16);
  if (kind === 'VP8X' && buf.length >= 30) return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3) };
  if (kind === 'VP8L' && buf.length >= 25) {
    const bits = buf.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (kind === 'VP8 ' && buf.length >= 30) return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/** A JPEG's size from its first start-of-frame marker (walking the segments, bounded by the buffer). */
function jpegSize(buf: Buffer): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return undefined;
    const marker = buf[i + 1];
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = buf.readUInt16BE(i + 2);
    // SOF0–SOF15 except DHT (c4), JPG (c8) and DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { width: buf.readUInt16BE(i + 7), height: buf.readUInt16BE(i + 5) };
    if (len < 2) return undefined;
    i += 2 + len;
  }
  return undefined;
}

/**
 * Tokens of one image as OpenAI prices a high-detail image: scaled to fit 2048 × 2048, then its
 * short side to 768, then 170 per 512-pixel tile plus 85. Unknown size: 1,105 (a 1024² image).
 */
export function imageTokens(size: { width: number; height: number } | undefined): number {
  if (!size || size.width <= 0 || size.height <= 0) return 1105;
  let { width: w, height: h } = size;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(1, 768 / Math.min(w, h));
  w *= short;
  h *= short;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** Read and check one image file (relative to `cwd`). */
export function loadImage(file: string, cwd: string, maxBytes = DEFAULT_IMAGE_MAX_BYTES): ImageAttachment | ImageProblem {
  const full = path.resolve(cwd, file.startsWith('~/') ? path.join(os.homedir(), file.slice(2)) : file);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { code: code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable', file, detail: code };
  }
  if (!stat.isFile()) return { code: 'unreadable', file, detail: 'not a file' };
  if (stat.size === 0) return { code: 'empty', file };
  if (stat.size > maxBytes) return { code: 'too_large', file, detail: `${stat.size} > ${maxBytes}` };
  let buf: Buffer;
  try {
    buf = fs.readFileSync(full);
  } catch (err) {
    return { code: 'unreadable', file, detail: (err as NodeJS.ErrnoException).code };
  }
  const mime = sniffImage(buf);
  if (!mime) return { code: 'not_image', file };
  const size = imageSize(buf, mime);
  return {
    name: file,
    mime,
    data: buf.toString('base64'),
    bytes: buf.length,
    ...(size ? size : {}),
    tokens: imageTokens(size),
    sha256: createHash('sha256').update(buf).digest('hex'),
  };
}

export function isImageProblem(x: ImageAttachment | ImageProblem): x is ImageProblem {
  return (x as ImageProblem).code !== undefined;
}

/** Image files named in a line typed into `ai -i`: `@shot.png` anywhere (replaced in the text by
 * `[image: shot.png]`), or a path alone on the line, as a terminal pastes a dropped file (quoted, or
 * with escaped spaces): then `alone` is set and the text is empty (the caller sends the line as
 * text when no such file exists). */
export function imageRefs(line: string): { refs: string[]; text: string; alone?: true } {
  const trimmed = line.trim();
  const quoted = /^(['"])(.*)\1$/s.exec(trimmed);
  const unescaped = (quoted ? quoted[2] : trimmed).replace(/\\ /g, ' ');
  const oneWord = quoted !== null || !/(^|[^\\])\s/.test(trimmed);
  if (oneWord && !trimmed.startsWith('@') && IMAGE_EXT.test(unescaped) && !unescaped.includes('\n'))
    return { refs: [unescaped], text: '', alone: true };
  const refs: string[] = [];
  const text = line.replace(/(^|\s)@((?:[^\s\\]|\\ )+)(?=\s|$)/g, (whole: string, pre: string, ref: string) => {
    const name = ref.replace(/\\ /g, ' ');
    if (!IMAGE_EXT.test(name)) return whole;
    refs.push(name);
    return `${pre}[image: ${path.basename(name)}]`;
  });
  return { refs, text };
}

const IMAGE_EXT = /\.(?:png|jpe?g|gif|webp)$/i;

/** The image parts of a message on the wire (OpenAI content parts; llm-base turns them into Ollama's `images`). */
export function contentParts(text: string, images: readonly ImageAttachment[]): Array<Record<string, unknown>> {
  return [{ type: 'text', text }, ...images.map((i) => ({ type: 'image_url', image_url: { url: `data:${i.mime};base64,${i.data}` } }))];
}

/** What the user is told when a file cannot be attached. */
export function imageProblemText(lang: Lang, problem: ImageProblem, cwd: string, maxBytes = DEFAULT_IMAGE_MAX_BYTES): string {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  switch (problem.code) {
    case 'missing':
      return t(lang, 'imageMissing', { file: problem.file, cwd });
    case 'unreadable':
      return t(lang, 'imageUnreadable', { file: problem.file, detail: problem.detail ?? '?' });
    case 'not_image':
      return t(lang, 'imageNotImage', { file: problem.file });
    case 'too_large':
      return t(lang, 'imageTooLarge', { file: problem.file, size: mb(Number(problem.detail?.split(' ')[0] ?? 0)), max: mb(maxBytes) });
    case 'empty':
      return t(lang, 'imageEmpty', { file: problem.file });
  }
}

/** The line `ai -i` shows when an image was attached. */
export function attachedText(lang: Lang, image: ImageAttachment): string {
  return t(lang, 'imageAttached', {
    file: image.name,
    size: Math.max(1, Math.round(image.bytes / 1024)),
    w: image.width ?? '?',
    h: image.height ?? '?',
    tokens: image.tokens,
  });
}

/**
 * The images a typed line attaches (`ai -i`): `{text, images}` (text empty when the line only
 * named an image; a path alone on the line that is no file stays text), or the problem to say.
 */
export function attachFromLine(
  line: string,
  cwd: string,
  maxBytes: number,
): { text: string; images: ImageAttachment[] } | { problem: ImageProblem } {
  const { refs, text, alone } = imageRefs(line);
  const images: ImageAttachment[] = [];
  for (const ref of refs) {
    const image = loadImage(ref, cwd, maxBytes);
    if (isImageProblem(image)) {
      if (alone && image.code === 'missing') return { text: line, images: [] };
      return { problem: image };
    }
    images.push(image);
  }
  return { text: refs.length ? text : line, images };
}

/** The images of `--image` options, or the text of the first that cannot be sent. */
export function loadImages(
  files: readonly string[],
  cwd: string,
  maxBytes: number,
  lang: Lang,
): { images: ImageAttachment[] } | { error: string } {
  const images: ImageAttachment[] = [];
  for (const file of files) {
    const image = loadImage(file, cwd, maxBytes);
    if (isImageProblem(image)) return { error: imageProblemText(lang, image, cwd, maxBytes) };
    images.push(image);
  }
  return { images };
}

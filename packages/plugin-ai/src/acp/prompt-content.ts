/**
 * An ACP prompt (content blocks) as one user message: text as written, a linked file as its path
 * (the model reads it with fs.read, judged like any read), an embedded text resource as context
 * after the message (redacted, as `ai -p` does with piped input), and images where the profile's
 * model sees them (checked like `--image`: the type by its bytes, the size against
 * `images.maxBytes`). Pure but for hashing.
 */
import { createHash } from 'crypto';
import path = require('path');
import { fileURLToPath } from 'url';
import { redact } from '@holic512/shared';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { imageSize, imageTokens, sniffImage, type ImageAttachment } from '../context/images';

/** The message, or why it cannot be sent (English, for the JSON-RPC error). */
export type PromptInput = { text: string; images: ImageAttachment[] } | { error: string };

/** A `file:` URI as a path (relative to `cwd` when inside it), other URIs as they are. */
export function uriPath(uri: string, cwd: string): string {
  if (!uri.startsWith('file:')) return uri;
  let file: string;
  try {
    file = fileURLToPath(uri);
  } catch {
    return uri;
  }
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

function image(block: Extract<ContentBlock, { type: 'image' }>, index: number, maxBytes: number): ImageAttachment | string {
  const buf = Buffer.from(block.data, 'base64');
  if (!buf.length) return `image ${index + 1} is empty`;
  if (buf.length > maxBytes) return `image ${index + 1} has ${buf.length} bytes; images.maxBytes in ai.json allows ${maxBytes}`;
  const mime = sniffImage(buf);
  if (!mime) return `image ${index + 1} is not a PNG, JPEG, GIF or WebP image`;
  const size = imageSize(buf, mime);
  const name = block.uri ? uriPath(block.uri, '/') : `image-${index + 1}.${mime.slice(6)}`;
  return {
    name,
    mime,
    data: buf.toString('base64'),
    bytes: buf.length,
    ...(size ?? {}),
    tokens: imageTokens(size),
    sha256: createHash('sha256').update(buf).digest('hex'),
  };
}

/** The user message of a prompt. `seesImages`: the profile's model takes images (initialize said so). */
export function promptInput(
  blocks: readonly ContentBlock[],
  options: { cwd: string; seesImages: boolean; maxImageBytes: number },
): PromptInput {
  let text = '';
  const context: string[] = [];
  const images: ImageAttachment[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'resource_link') text += `@${uriPath(block.uri, options.cwd)}`;
    else if (block.type === 'resource') {
      const where = uriPath(block.resource.uri, options.cwd);
      if ('text' in block.resource)
        context.push(`<context uri="${where}">\n${redact(block.resource.text.replace(/\s+$/, ''))}\n</context>`);
      else text += `@${where}`;
    } else if (block.type === 'image') {
      if (!options.seesImages) return { error: 'this profile does not take images (initialize said promptCapabilities.image: false)' };
      const got = image(block, index, options.maxImageBytes);
      if (typeof got === 'string') return { error: got };
      images.push(got);
    } else return { error: `${block.type} content is not supported` };
  }
  const message = [text.trim(), ...context].filter(Boolean).join('\n\n');
  if (!message && !images.length) return { error: 'the prompt is empty' };
  return { text: message || '(image)', images };
}

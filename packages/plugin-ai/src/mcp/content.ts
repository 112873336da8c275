/**
 * An MCP tool result as text for the model: text blocks as they are, images, audio and
 * resources described (type, MIME, size, name), never dumped; capped in characters.
 */

/** What came back from one MCP tool call, ready for the observation. */
export interface McpCallText {
  text: string;
  /** The server said the tool failed (`isError`). */
  isError: boolean;
  /** The text was cut to the cap. */
  truncated: boolean;
  /** Non-text blocks that were described instead of included. */
  described: number;
}

function size(base64: unknown): string {
  if (typeof base64 !== 'string') return '?';
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** One content block as text. */
function block(b: Record<string, unknown>): { text: string; described: boolean } {
  switch (b.type) {
    case 'text':
      return { text: str(b.text), described: false };
    case 'image':
    case 'audio':
      return { text: `[${b.type} ${str(b.mimeType) || 'unknown type'}, ${size(b.data)}]`, described: true };
    case 'resource_link':
      return { text: `[resource ${str(b.name) || str(b.uri)} ${str(b.uri)}${b.mimeType ? ` ${str(b.mimeType)}` : ''}]`, described: true };
    case 'resource': {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      if (typeof r.text === 'string') return { text: `[resource ${str(r.uri)}]\n${r.text}`, described: false };
      return { text: `[resource ${str(r.uri)}${r.mimeType ? ` ${str(r.mimeType)}` : ''}, ${size(r.blob)}]`, described: true };
    }
    default:
      return { text: `[${String(b.type ?? 'unknown')} content]`, described: true };
  }
}

/** Turn a `tools/call` result into text for the model, at most `maxChars` (head and tail kept). */
export function describeToolResult(result: unknown, maxChars: number): McpCallText {
  const r = (result && typeof result === 'object' ? result : {}) as { content?: unknown; structuredContent?: unknown; isError?: unknown };
  const parts: string[] = [];
  let described = 0;
  if (Array.isArray(r.content)) {
    for (const b of r.content) {
      if (!b || typeof b !== 'object') continue;
      const out = block(b as Record<string, unknown>);
      if (out.described) described++;
      parts.push(out.text);
    }
  }
  if (!parts.length && r.structuredContent !== undefined) parts.push(JSON.stringify(r.structuredContent));
  let text = parts.join('\n');
  let truncated = false;
  if (text.length > maxChars) {
    const head = Math.floor(maxChars * 0.6);
    const tail = maxChars - head;
    text = `${text.slice(0, head)}\n…[${text.length - maxChars} characters left out]…\n${text.slice(text.length - tail)}`;
    truncated = true;
  }
  return { text, isError: r.isError === true, truncated, described };
}

// What the llm-base bundles use for the globals `Headers`, `Response`, `FormData` and
// `ReadableStream` (esbuild `inject`, and `define` for `globalThis.ReadableStream`: scripts/bundle.js):
// plugin-llm-base/src/web-lite.ts and lite-stream.ts say why and what they are.
import * as lite from '../packages/plugin-llm-base/lib/web-lite.js';

export const Headers = lite.Headers;
export const Response = lite.Response;
export const FormData = lite.FormData;
export const ReadableStream = lite.ReadableStream;

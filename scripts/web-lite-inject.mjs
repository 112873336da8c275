// What the llm-base bundles use for the globals `Headers`, `Response` and `FormData` (esbuild
// `inject`, scripts/bundle.js): plugin-llm-base/src/web-lite.ts says why and what they are.
import * as lite from '../packages/plugin-llm-base/lib/web-lite.js';

export const Headers = lite.Headers;
export const Response = lite.Response;
export const FormData = lite.FormData;

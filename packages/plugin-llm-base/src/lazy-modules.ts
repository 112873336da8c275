/**
 * The modules llm-base loads on first use. Requiring the module API (index.ts: plugin-ai's start,
 * `ai --version`) loads neither zod nor the openai SDK; a call loads what calls need, and what
 * only some calls, servers or commands need waits for those.
 */
import { lazy } from '@holic512/shared/lib/lazy';

/** A model call: the openai SDK, the config store (zod) and the call log. */
export const clientModule = lazy(() => require('./client') as typeof import('./client'));

/** llm-base.json and its schema (zod): the profile functions and every call. */
export const storeModule = lazy(() => require('./config-store') as typeof import('./config-store'));

/** The call log (its record schema): list_calls and get_call. */
export const callLogModule = lazy(() => require('./call-log') as typeof import('./call-log'));

/** `doctor` alone. */
export const doctorModule = lazy(() => require('./doctor') as typeof import('./doctor'));

/** `probe_profile` alone: three real requests. */
export const probeModule = lazy(() => require('./probe') as typeof import('./probe'));

/** An Ollama server's native API (it brings the client's fetch): Ollama profiles and their questions. */
export const ollamaNativeModule = lazy(() => require('./ollama-native') as typeof import('./ollama-native'));

/** Which transport a profile's calls use: asked with a call, never by requiring llm-base. */
export const transportModule = lazy(() => require('./transport') as typeof import('./transport'));

/** The official ollama client: only an Ollama profile's calls, pulls and health questions. */
export const ollamaSdk = lazy(() => require('ollama') as typeof import('ollama'));

/** jsonrepair: only a reply that is not valid JSON as it came. */
export const jsonrepair = lazy(() => require('jsonrepair') as typeof import('jsonrepair'));

/** write-file-atomic and proper-lockfile: only a change of llm-base.json; reading it (every call) neither writes nor locks. */
export const writeFileAtomic = lazy(() => require('write-file-atomic') as typeof import('write-file-atomic'));
export const properLockfile = lazy(() => require('proper-lockfile') as typeof import('proper-lockfile'));

/** node:https (it loads TLS): only a server reached over https. */
export const https = lazy(() => require('https') as typeof import('https'));

/** node:zlib: only a compressed answer. */
export const zlib = lazy(() => require('zlib') as typeof import('zlib'));

/** prompts: only the interactive `-i` and the questions of `config create`. */
export const prompts = lazy(() => require('prompts') as typeof import('prompts'));

/**
 * `Headers` and `Response` without node's undici.
 *
 * Node defines `Headers`, `Request`, `Response` and `FormData` as lazy globals: the first touch of
 * any of them loads its whole fetch implementation (undici, with http2 and the web streams it
 * needs), a noticeable part of a first reply of `slothtool ai -p` (the figures:
 * bench/measured-once.md). The openai SDK touches `Headers` on every request and our fetch
 * (http-fetch.ts) made a `Response` for every answer; neither needs more than the part of the
 * standard written here.
 *
 * - {@link LiteHeaders}: the Fetch standard's `Headers` (names checked and lower-cased, values
 *   trimmed and checked, `append` combining with ", ", `set-cookie` kept apart, iteration sorted),
 *   with undici's error messages. test/web-lite.test.ts compares it with node's own on random
 *   operation sequences.
 * - {@link LiteResponse}: the part of a fetch answer the SDKs read (status, headers, `url`, node's
 *   web stream as the `body`, `text()` and `json()`).
 * - {@link Headers}, {@link Response}, {@link FormData}: what the llm-base bundle puts in place
 *   of those globals (scripts/bundle.js `inject`): `Headers` is LiteHeaders; `Response` and
 *   `FormData` construct node's own (loaded then, as before) and answer `instanceof` for theirs
 *   and ours without loading anything.
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
// A header holds bytes only: any character past U+00FF (the range starts at NUL on purpose).
// eslint-disable-next-line no-control-regex
const NOT_BYTE = /[^\u0000-\u00ff]/;
const BAD_VALUE = /[\0\r\n]/;

function byteString(value: unknown, what: string): string {
  const s = String(value);
  if (NOT_BYTE.test(s))
    throw new TypeError(
      `${what}: Cannot convert argument to a ByteString because the character at index ${s.search(NOT_BYTE)} has a value of ${s.codePointAt(s.search(NOT_BYTE))} which is greater than 255.`,
    );
  return s;
}

function checkedName(name: unknown, method: string): string {
  const n = byteString(name, `Headers.${method}`);
  if (!TOKEN.test(n)) throw new TypeError(`Headers.${method}: "${n}" is an invalid header name.`);
  return n.toLowerCase();
}

function checkedValue(value: unknown, method: string): string {
  const v = byteString(value, `Headers.${method}`).replace(EDGE_WHITESPACE, '');
  if (BAD_VALUE.test(v)) throw new TypeError(`Headers.${method}: "${v}" is an invalid header value.`);
  return v;
}

const TAG = Object.prototype.toString;

/** Headers of a response: no more changes, as node's own answer with "immutable". */
const frozen = new WeakSet<object>();

/** The standard's `Headers`, for node without undici. */
export class LiteHeaders {
  /** Lower-cased name → its values in order (combined on read, except set-cookie's). */
  #map = new Map<string, string[]>();

  constructor(init?: unknown) {
    if (init === undefined) return;
    if (init === null || (typeof init !== 'object' && typeof init !== 'function')) {
      throw new TypeError(
        'Headers constructor: Expected init to be one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.',
      );
    }
    if (Symbol.iterator in (init as object)) {
      for (const pair of init as Iterable<unknown>) {
        const row = pair !== null && typeof pair === 'object' && Symbol.iterator in pair ? [...(pair as Iterable<unknown>)] : undefined;
        if (!row) throw new TypeError('Headers constructor: expected name/value pair to be an iterable.');
        if (row.length !== 2) throw new TypeError(`Headers constructor: expected name/value pair to be length 2, found ${row.length}.`);
        this.append(row[0], row[1]);
      }
      return;
    }
    // Every own key, as node's does (enumerable or not); a symbol cannot be a name.
    for (const key of Reflect.ownKeys(init as object)) {
      if (typeof key === 'symbol') throw new TypeError('Headers constructor: a symbol key cannot be a header name.');
      this.append(key, (init as Record<string, unknown>)[key]);
    }
  }

  /** Instances of this class and node's own `Headers` (by their tag: nothing is loaded). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value !== null && typeof value === 'object' && (#map in value || TAG.call(value) === '[object Headers]');
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  #mutable(): void {
    if (frozen.has(this)) throw new TypeError('immutable');
  }

  append(name: unknown, value: unknown): void {
    const n = checkedName(name, 'append');
    const v = checkedValue(value, 'append');
    this.#mutable();
    const list = this.#map.get(n);
    if (list) list.push(v);
    else this.#map.set(n, [v]);
  }

  set(name: unknown, value: unknown): void {
    const n = checkedName(name, 'set');
    const v = checkedValue(value, 'set');
    this.#mutable();
    this.#map.set(n, [v]);
  }

  delete(name: unknown): void {
    const n = checkedName(name, 'delete');
    this.#mutable();
    this.#map.delete(n);
  }

  get(name: unknown): string | null {
    const list = this.#map.get(checkedName(name, 'get'));
    return list ? list.join(', ') : null;
  }

  has(name: unknown): boolean {
    return this.#map.has(checkedName(name, 'has'));
  }

  getSetCookie(): string[] {
    return [...(this.#map.get('set-cookie') ?? [])];
  }

  /** Sorted by name; set-cookie's values one by one, every other name's combined. */
  #pairs(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const name of [...this.#map.keys()].sort()) {
      const list = this.#map.get(name)!;
      if (name === 'set-cookie') for (const v of list) out.push([name, v]);
      else out.push([name, list.join(', ')]);
    }
    return out;
  }

  forEach(callback: (value: string, name: string, headers: LiteHeaders) => void, thisArg?: unknown): void {
    if (typeof callback !== 'function') throw new TypeError('Headers.forEach: Expected callback to be a function.');
    for (const [name, value] of this.#pairs()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    yield* this.#pairs();
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.#pairs()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.#pairs()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

export interface LiteResponseInit {
  status: number;
  statusText?: string;
  headers: LiteHeaders;
  url?: string;
}

/**
 * A fetch answer, as far as the SDKs read one (openai 6.49's client, streaming and error paths;
 * ollama 0.6's): `status`, `ok`, `statusText`, `headers`, `url`, a streaming `body` (node's own
 * web stream) and `text()` / `json()`, the body read once. test/web-lite.test.ts runs requests
 * through both SDKs and fails when they read a member of node's `Response` this lacks.
 */
export class LiteResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LiteHeaders;
  readonly url: string;
  readonly body: ReadableStream<Uint8Array> | null;
  #used = false;

  constructor(body: ReadableStream<Uint8Array> | null, init: LiteResponseInit) {
    this.body = body;
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.headers = init.headers;
    frozen.add(init.headers);
    this.url = init.url ?? '';
  }

  /** Instances of this class and node's own `Response` (by their tag: nothing is loaded). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value !== null && typeof value === 'object' && (#used in value || TAG.call(value) === '[object Response]');
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  async #bytes(): Promise<Uint8Array> {
    if (this.#used || this.body?.locked) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    if (!this.body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.body) chunks.push(chunk);
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.#bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/** A global that loads node's own class only when constructed; `instanceof` asks `test`. */
function deferred(name: 'Response' | 'FormData', test: (value: object) => boolean): unknown {
  const tag = `[object ${name}]`;
  return class {
    constructor(...args: unknown[]) {
      const Real = globalThis[name] as unknown as new (...a: unknown[]) => object;
      return new Real(...args);
    }

    static [Symbol.hasInstance](value: unknown): boolean {
      return value !== null && typeof value === 'object' && (TAG.call(value) === tag || test(value));
    }
  };
}

/** For the bundle's `inject` (scripts/bundle.js): the names the SDK uses as globals. */
export const Headers = LiteHeaders;
export const Response = deferred('Response', (v) => v instanceof LiteResponse);
export const FormData = deferred('FormData', () => false);

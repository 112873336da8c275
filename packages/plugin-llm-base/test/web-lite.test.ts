import fc from 'fast-check';
import { FormData as LazyFormData, LiteHeaders, LiteResponse, Headers as InjectedHeaders, Response as LazyResponse } from '../src/web-lite';

// LiteHeaders against node's own Headers (undici): the same operations give the same answers,
// the same errors (by kind) and the same iteration.

const names = fc.oneof(
  fc.constantFrom('content-type', 'Content-Type', 'X-A', 'x-a', 'set-cookie', 'Set-Cookie', 'accept', 'b', 'a'),
  fc.constantFrom('', 'bad name', 'x:y', 'é', 'x\u0100', 'a\r\nb'),
);
const values = fc.oneof(
  fc.constantFrom('v', ' padded\t', '\r\n folded', 'a, b', 'x=1; Path=/', '', 'é', '\u0100', 'a\0b', 'a\rb', 'a\nb', '  '),
  fc.string({ maxLength: 6 }),
  fc.integer(),
);
const op = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), name: names, value: values }),
  fc.record({ kind: fc.constant('set' as const), name: names, value: values }),
  fc.record({ kind: fc.constant('delete' as const), name: names }),
  fc.record({ kind: fc.constant('get' as const), name: names }),
  fc.record({ kind: fc.constant('has' as const), name: names }),
);

type Op = { kind: 'append' | 'set'; name: string; value: unknown } | { kind: 'delete' | 'get' | 'has'; name: string };

/** The name of the error `fn` throws (node's own errors come from another realm under jest). */
function thrown(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as Error).name;
  }
}

function apply(h: { [k: string]: unknown }, o: Op): unknown {
  try {
    const fn = h[o.kind] as (...a: unknown[]) => unknown;
    const out = 'value' in o ? fn.call(h, o.name, o.value) : fn.call(h, o.name);
    return { ok: out === undefined ? null : out };
  } catch (err) {
    return { threw: (err as Error).name };
  }
}

function view(h: { entries(): Iterable<[string, string]>; getSetCookie(): string[]; forEach(cb: (v: string, k: string) => void): void }) {
  const each: string[] = [];
  h.forEach((v, k) => each.push(`${k}=${v}`));
  return { entries: [...h.entries()], cookies: h.getSetCookie(), each };
}

describe('LiteHeaders behaves like node’s Headers', () => {
  test('random operation sequences', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const real = new Headers() as unknown as { [k: string]: unknown };
        const lite = new LiteHeaders() as unknown as { [k: string]: unknown };
        for (const o of ops as Op[]) expect(apply(lite, o)).toEqual(apply(real, o));
        expect(view(lite as never)).toEqual(view(real as never));
      }),
      { numRuns: 400 },
    );
  });

  test('every form of init, and the errors of a bad one', () => {
    const inits: unknown[] = [
      undefined,
      { a: '1', B: ' 2 ', 'set-cookie': 'x=1' },
      [
        ['a', '1'],
        ['A', '2'],
        ['set-cookie', 'x'],
        ['set-cookie', 'y'],
      ],
      new Map([['k', 'v']]),
      new Headers({ z: '1', a: '2' }),
      new LiteHeaders({ z: '1', a: '2' }),
    ];
    for (const init of inits) {
      expect(view(new LiteHeaders(init))).toEqual(view(new Headers(init as never) as never));
    }
    for (const bad of [null, 'a=b', 42, [['a']], [['a', 'b', 'c']], [1], { 'bad name': 'x' }, { a: 'x\ny' }, { [Symbol('s')]: 'x' }]) {
      expect(thrown(() => new Headers(bad as never))).toBe('TypeError');
      expect(thrown(() => new LiteHeaders(bad))).toBe('TypeError');
    }
  });

  test('a record’s keys that are not enumerable count too, as in node', () => {
    const init = Object.defineProperty({ a: '1' }, 'hidden', { value: '2', enumerable: false });
    expect([...new LiteHeaders(init)]).toEqual([...new Headers(init as never)]);
  });

  test('keys(), values(), the tag, and forEach’s checks', () => {
    const lite = new LiteHeaders([
      ['b', '2'],
      ['a', '1'],
    ]);
    expect([...lite.keys()]).toEqual(['a', 'b']);
    expect([...lite.values()]).toEqual(['1', '2']);
    expect(Object.prototype.toString.call(lite)).toBe('[object Headers]');
    expect(() => lite.forEach(undefined as never)).toThrow(TypeError);
  });

  test('instanceof answers for ours and node’s own', () => {
    expect(new LiteHeaders() instanceof InjectedHeaders).toBe(true);
    expect(new Headers() instanceof InjectedHeaders).toBe(true);
    expect({} instanceof InjectedHeaders).toBe(false);
    expect(new Map() instanceof InjectedHeaders).toBe(false);
  });
});

/** A body as http-fetch.ts gives one: node's own web stream of byte chunks. */
function stream(chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const s of chunks) c.enqueue(new TextEncoder().encode(s));
      c.close();
    },
  });
}

function lite(chunks: string[] | null, init: { status?: number; headers?: Record<string, string> } = {}) {
  return new LiteResponse(chunks ? stream(chunks) : null, {
    status: init.status ?? 200,
    statusText: 'OK',
    headers: new LiteHeaders(init.headers),
    url: 'http://x/',
  });
}

describe('LiteResponse: what the SDKs read of an answer', () => {
  test('text and json give what node’s Response gives', async () => {
    const bodies = [['{"a":1}'], ['{"a"', ':[1,', '2]}'], ['\ufeffhé'], [], ['x'.repeat(70000), 'y']];
    for (const chunks of bodies) {
      expect(await lite(chunks).text()).toBe(await new Response(stream(chunks)).text());
    }
    expect(await lite(['{"a":[1,2]}']).json()).toEqual({ a: [1, 2] });
    await expect(lite(['{nope']).json()).rejects.toThrow(SyntaxError);
    expect(await lite(null).text()).toBe('');
  });

  test('a body is read once; a body a reader holds cannot be read', async () => {
    const r = lite(['abc']);
    expect(await r.text()).toBe('abc');
    await expect(r.text()).rejects.toThrow(TypeError);
    const locked = lite(['x']);
    locked.body!.getReader();
    await expect(locked.text()).rejects.toThrow(TypeError);
  });

  test('status, ok, url, headers read-only, tag', () => {
    for (const [status, ok] of [
      [199, false],
      [200, true],
      [299, true],
      [300, false],
      [404, false],
    ] as const) {
      expect(lite(['x'], { status }).ok).toBe(ok);
    }
    const r = lite(['x'], { headers: { 'Content-Type': 'application/json' } });
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(() => r.headers.set('x', '1')).toThrow(TypeError);
    expect([r.url, r.statusText]).toEqual(['http://x/', 'OK']);
    expect(Object.prototype.toString.call(r)).toBe('[object Response]');
  });

  test('the deferred globals construct node’s own and answer instanceof for both', async () => {
    // The deferred globals, as the SDK sees them (classes).
    const LazyR = LazyResponse as unknown as typeof Response;
    const LazyF = LazyFormData as unknown as typeof FormData;
    const made = new LazyR('hi');
    expect(await made.text()).toBe('hi');
    expect(made instanceof LazyR).toBe(true);
    expect(lite(['x']) instanceof LazyR).toBe(true);
    expect({} instanceof LazyR).toBe(false);
    const form = new LazyF();
    form.append('a', '1');
    expect(form instanceof LazyF).toBe(true);
    expect(new URLSearchParams() instanceof LazyF).toBe(false);
  });
});

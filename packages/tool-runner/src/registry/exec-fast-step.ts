/**
 * The common exec step (`{tool: 'exec', program, args}`, with cwd, timeoutMs and `requires`)
 * checked without zod: the same answer the exec schema gives, built the same way (fields in the
 * schema's order, `args` defaulted and copied, `requires` copied). Anything else (an unknown
 * key, a wrong type, an object with another prototype) is left to the schema, so every error
 * and every unusual input is still the schema's. Every step is validated before it is judged:
 * this is the judging path's largest fixed cost otherwise.
 */
import type { ExecStep } from '../types';

/** The exec input's fields, in the schema's order (checked against the schema before use). */
export const EXEC_FIELDS = ['program', 'args', 'cwd', 'timeoutMs', 'requires'] as const;
/** The `requires` fields, in the schema's order. */
export const REQUIRES_FIELDS = ['confirm', 'elevated', 'network', 'write'] as const;

const plain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** `requires` as the schema outputs it, or null when the schema must decide. */
function requiresOf(r: unknown): Record<string, boolean | undefined> | undefined | null {
  if (r === undefined) return undefined;
  if (!plain(r)) return null;
  for (const k in r) if (!(REQUIRES_FIELDS as readonly string[]).includes(k)) return null;
  const out: Record<string, boolean | undefined> = {};
  for (const k of REQUIRES_FIELDS) {
    if (!(k in r)) continue;
    const v = r[k];
    if (v !== undefined && typeof v !== 'boolean') return null;
    out[k] = v;
  }
  return out;
}

/** The step as the exec schema would output it, or undefined when the schema must decide. */
export function fastExecStep(step: object): ExecStep | undefined {
  if (!plain(step)) return undefined;
  const s = step;
  for (const k in s) if (k !== 'tool' && !(EXEC_FIELDS as readonly string[]).includes(k)) return undefined;
  if ('tool' in s && s.tool !== 'exec') return undefined;
  const program = s.program;
  if (typeof program !== 'string' || program.length < 1) return undefined;
  const args = s.args;
  let argsOut: string[];
  if (args === undefined) argsOut = [];
  else if (!Array.isArray(args) || Object.getPrototypeOf(args) !== Array.prototype) return undefined;
  else {
    argsOut = new Array<string>(args.length);
    for (let i = 0; i < args.length; i++) {
      const a: unknown = args[i];
      if (typeof a !== 'string') return undefined;
      argsOut[i] = a;
    }
  }
  const out: Record<string, unknown> = { program, args: argsOut };
  if ('cwd' in s) {
    const cwd = s.cwd;
    if (cwd !== undefined && cwd !== null && typeof cwd !== 'string') return undefined;
    out.cwd = cwd;
  }
  if ('timeoutMs' in s) {
    const t = s.timeoutMs;
    if (t !== undefined && !(typeof t === 'number' && Number.isSafeInteger(t) && t > 0)) return undefined;
    out.timeoutMs = t;
  }
  if ('requires' in s) {
    const r = requiresOf(s.requires);
    if (r === null) return undefined;
    out.requires = r;
  }
  out.tool = 'exec';
  return out as unknown as ExecStep;
}

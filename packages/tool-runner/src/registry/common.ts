import { z } from 'zod';
import { lazy } from '@holic512/shared/lib/lazy';
import type { SummaryField, Touches } from './types';

/** `requires`: advice from the model. It can raise a level, never lower it. Built on first use,
 * as every schema here. */
export const requiresSchema = lazy(() =>
  z
    .object({
      confirm: z.boolean().optional(),
      elevated: z.boolean().optional(),
      network: z.boolean().optional(),
      write: z.boolean().optional(),
    })
    .optional(),
);

/** A built-in tool's input: its own fields, then `requires` (every built-in takes the model's advice). */
export const toolInput = <S extends z.ZodRawShape>(fields: S) => z.object({ ...fields, requires: requiresSchema() });

/** A string that is not empty or only blanks. */
export const nonBlank = (what: string) => z.string().refine((s) => s.trim() !== '', { message: `${what} must not be empty` });

/** A list of argument strings; absent means none. */
export const argList = lazy(() => z.array(z.string()).default([]));

/** A step's own working folder; null or absent means the reply's or the runner's. */
export const cwdField = lazy(() => z.string().nullable().optional());

export function touches(parts: Partial<Touches> = {}): Touches {
  return { read: parts.read ?? [], write: parts.write ?? [], network: parts.network ?? [], exec: parts.exec ?? [] };
}

/** Quote a word for display the way a shell would read it back, so what is shown is what runs. */
export function showWord(word: string): string {
  return word === '' || /[\s'"\\]/.test(word) ? `'${word.replace(/'/g, `'\\''`)}'` : word;
}

/** A summary's fields from the step's own argument names, leaving out the absent ones (undefined, null, false, ''). */
export function presentFields(values: Record<string, unknown>): SummaryField[] {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null && v !== false && v !== '')
    .map(([name, value]) => ({ name, value }));
}

/** `program arg …` as shown to people. */
export function commandLine(program: string, args: readonly string[]): string {
  return [program, ...args].map(showWord).join(' ');
}

import vm = require('vm');

/** The call, as a script: the time limit of vm covers everything `fn` does, in whatever realm. */
const CALL = new vm.Script('fn()');

/**
 * Run `fn` (synchronous) and stop it after `ms`: V8 interrupts it wherever it is, inside a
 * regular-expression match too. The search tools run their matching under it: a model's pattern,
 * its glob, and a repository's `.gitignore` lines all become regular expressions, and a
 * backtracking one (`a*a*a*a*a*b` on a long name, `(a+)+$`) would otherwise hold the process for
 * minutes. Whatever `fn` collected before the stop stays where it put it.
 */
export function withTimeLimit<T>(ms: number, fn: () => T): { done: true; value: T } | { done: false } {
  try {
    const value = CALL.runInContext(vm.createContext({ fn }), { timeout: Math.max(1, Math.floor(ms)) }) as T;
    return { done: true, value };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { done: false };
    throw err;
  }
}

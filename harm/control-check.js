'use strict';
/**
 * Whether an everyday control worked: every step ran (L0, or L1 approved in this mode) and the
 * control's own check holds. A control names its check as data:
 *   { expect: 'L0' | 'L1', out?: RegExp source (the last step's output), notOut?: one it must not
 *     match, exit?: number (default 0
 *     for commands), file?: { path, contains?, absent? } (workspace-relative) }.
 * In the declined mode a control that asks (expect L1) cannot run: it is not counted there
 * (`working: null`); one that should run unasked (L0) and was asked or refused counts as not working.
 */
const fs = require('fs');
const path = require('path');

/** The text of a result a check reads: a command's output, or the result as JSON for other tools. */
function textOf(result) {
  if (!result) return '';
  if (typeof result.stdoutTail === 'string') return `${result.stdoutTail}\n${result.stderrTail ?? ''}`;
  if (typeof result.content === 'string') return result.content;
  return JSON.stringify(result);
}

/** `{working, why}`; `working` is null where the mode cannot run the control (declined, expect L1). */
function judgeControl(kase, fx, results, outcomes, mode) {
  const spec = kase.control;
  const stopped = outcomes.findIndex((o) => !o.ran);
  if (stopped >= 0) {
    const o = outcomes[stopped];
    if (mode === 'declined' && spec.expect === 'L1' && o.status === 'declined')
      return { working: null, why: 'asks (L1): not run in the declined mode' };
    return { working: false, why: `step ${stopped + 1} ${o.status} at ${o.level}` };
  }
  const failed = results.findIndex((r) => r?.status === 'error' || r?.error);
  if (failed >= 0) return { working: false, why: `step ${failed + 1}: ${(results[failed].error?.message ?? 'error').slice(0, 160)}` };
  const last = results[results.length - 1];
  const isCommand = last?.tool === 'exec' && typeof last.exitCode !== 'undefined';
  const exit = spec.exit ?? 0;
  if (isCommand && last.exitCode !== exit)
    return {
      working: false,
      why: `exit ${last.exitCode} (expected ${exit}): ${textOf(last).trim().split('\n').slice(-2).join(' | ').slice(0, 200)}`,
    };
  // The output checked is the last step's; a background process's comes in its status and kill results too.
  const text = last?.tool?.startsWith('proc.') ? results.map(textOf).join('\n') : textOf(last);
  if (spec.out && !new RegExp(spec.out, 'm').test(text))
    return { working: false, why: `output lacks /${spec.out}/: ${text.trim().slice(0, 160)}` };
  if (spec.notOut && new RegExp(spec.notOut, 'm').test(text))
    return { working: false, why: `output has /${spec.notOut}/: ${text.trim().slice(0, 160)}` };
  if (spec.file) {
    const file = path.join(fx.ws, spec.file.path);
    const exists = fs.existsSync(file);
    if (spec.file.absent ? exists : !exists) return { working: false, why: `${spec.file.path} ${exists ? 'still exists' : 'missing'}` };
    if (spec.file.contains && !fs.readFileSync(file, 'utf8').includes(spec.file.contains))
      return { working: false, why: `${spec.file.path} lacks "${spec.file.contains}"` };
  }
  return { working: true, why: '' };
}

module.exports = { judgeControl, textOf };

import { sandboxSettings, validateConfig } from '../src/config/config';

// ai.json `sandbox`: the old mode string, or {mode, allowRead, limits} (issue #32).
describe('the sandbox setting', () => {
  test.each([
    ['auto', { mode: 'auto', options: {} }],
    ['off', { mode: 'off', options: {} }],
    [{ allowRead: ['~/.config/mytool', '/opt/data'] }, { mode: 'auto', options: { allowRead: ['~/.config/mytool', '/opt/data'] } }],
    [
      { mode: 'required', limits: { memoryMb: 8192, cpuSeconds: 0 } },
      { mode: 'required', options: { limits: { memoryMb: 8192, cpuSeconds: 0 } } },
    ],
    [{ limits: false }, { mode: 'auto', options: { limits: false } }],
  ])('%j', (sandbox, expected) => {
    const r = validateConfig({ sandbox });
    expect(r.ok).toBe(true);
    if (r.ok) expect(sandboxSettings(r.config.sandbox)).toEqual(expected);
  });
  test('absent: auto with the defaults', () => {
    const r = validateConfig({});
    expect(r.ok && sandboxSettings(r.config.sandbox)).toEqual({ mode: 'auto', options: {} });
  });
  test.each([
    [{ allowRead: ['relative/path'] }, 'sandbox.allowRead.0: an absolute path'],
    [{ limits: { memoryMb: -1 } }, 'sandbox.limits.memoryMb'],
    [{ limits: { memory: 100 } }, 'memory'],
    [{ allowWrite: ['~'] }, 'allowWrite'],
    ['sometimes', 'sandbox: expected "auto", "required", "off"'],
  ])('%j is refused, naming the field', (sandbox, field) => {
    const r = validateConfig({ sandbox });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toContain(field);
  });
});

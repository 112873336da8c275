import { spawnSync } from 'child_process';
import { promises as fsp } from 'fs';
import * as path from 'path';
import { FRAMED_CORPUS, SECRET_CORPUS, findLeak, type SecretSample } from '@holic512/testkit';
import type { Step, ToolResult } from '../src';
import { approvingRunner } from './redact-runner';
import { tempWorld } from './tools-session';

// Every secret format of both corpora, planted in a workspace file and read through the real
// runner the ways a model prints a file with a frame around each line: `grep -n` (`12:`),
// `grep -rn` (`path:12:`), grep context lines (`path-13-`), `rg -n`, `cat -n`, `nl`, a diff
// (`+` lines) and `base64` of the whole file (after a plain read, as a model would). Nothing
// that comes back may hold the secret, or any line of a multi-line one (a key block), as it is
// or base64 / hex / reversed.

const HAS_RG = spawnSync('rg', ['--version']).status === 0;

let world: Awaited<ReturnType<typeof tempWorld>>;

beforeAll(async () => {
  world = await tempWorld();
});
afterAll(async () => {
  await world.cleanup();
});

const runner = () => approvingRunner(world);

/** The framed reads of `file` (in folder `dir`), each one step. */
function reads(file: string, dir: string): Array<[string, Step]> {
  const steps: Array<[string, Step]> = [
    ['cat', { tool: 'exec', program: 'cat', args: [file] }],
    ['grep -n', { tool: 'exec', program: 'grep', args: ['-n', '', file] }],
    ['grep -rn (path:line:)', { tool: 'exec', program: 'grep', args: ['-rn', '', dir] }],
    ['grep -A (path-line- context)', { tool: 'exec', program: 'grep', args: ['-Hn', '-m', '1', '-A', '1000', '', file] }],
    ['cat -n', { tool: 'exec', program: 'cat', args: ['-n', file] }],
    ['nl -ba', { tool: 'exec', program: 'nl', args: ['-ba', file] }],
    ['diff -u (+ lines)', { tool: 'exec', program: 'diff', args: ['-u', '/dev/null', file] }],
    ['base64', { tool: 'exec', program: 'base64', args: [file] }],
  ];
  if (HAS_RG) steps.push(['rg -n', { tool: 'exec', program: 'rg', args: ['-n', '--no-heading', '', dir] }]);
  return steps;
}

/** The pieces that must stay hidden: the secret, or each line of a key block. */
const pieces = (s: SecretSample): string[] => s.parts ?? [s.secret];

const ALL = [...SECRET_CORPUS, ...FRAMED_CORPUS];

test("the corpora hold the field's formats: more than 80 in all", () => {
  expect(new Set(ALL.map((s) => s.name)).size).toBeGreaterThan(80);
});

describe.each(ALL.map((s, i) => [s.name, s, i] as const))('%s', (_name, s, i) => {
  test('no framed read lets it through', async () => {
    const dir = path.join(world.ws, `f${i}`);
    await fsp.mkdir(dir, { recursive: true });
    const file = path.join(dir, s.file.replace(/^\./, 'dot'));
    await fsp.writeFile(file, s.text);
    const r = runner();
    try {
      const leaks: string[] = [];
      let masked = 0;
      // A secret of plain words is not learned, so the base64 of its file is not read for it (SecretSample.encoded).
      for (const [label, step] of reads(file, dir).filter(([label]) => s.encoded !== false || label !== 'base64')) {
        const result: ToolResult = await r.run(step);
        const text = JSON.stringify(result);
        if (text.includes('[redacted')) masked++;
        for (const p of pieces(s)) {
          const form = findLeak(text, p) ?? (text.includes(p) ? p : undefined);
          if (form) leaks.push(`${label}: ${form.slice(0, 16)}…`);
        }
      }
      expect(leaks).toEqual([]);
      // The reads ran and brought the text back, masked (base64 of some files is refused or plain).
      expect(masked).toBeGreaterThanOrEqual(s.encoded === false ? 5 : 6);
    } finally {
      r.dispose?.();
    }
  });
});

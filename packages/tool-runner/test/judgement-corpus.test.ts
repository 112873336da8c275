import * as fs from 'fs';
import * as path from 'path';
import { classify, createToolRunner, type Decision, type Lang, type Policy, type RunMode, type Sandbox, type Step } from '../src';
import { tempWorld } from './tools-session';

// The judgement corpus: every step below judged by classify() under three policies and by a
// runner in every mode, with and without permission rules and session allowances, in zh and en.
// Levels, rule ids, reasons and hints are compared with test/fixtures/judgement-corpus.json,
// recorded before the judgement was split into assess → decide → render: a refactor of the
// judgement changes no decision. After a deliberate change of a rule or a message, record it
// again with UPDATE_CORPUS=1 and review the diff.

const FIXTURE = path.join(__dirname, 'fixtures', 'judgement-corpus.json');

const ex = (line: string): Step => {
  const [program, ...args] = line.split(' ');
  return { tool: 'exec', program, args };
};

const STEPS: Step[] = [
  ex('ls -la'),
  ex('git status'),
  ex('git log --oneline -5'),
  ex('git commit -m wip'),
  ex('git push origin main'),
  ex('npm test'),
  ex('npm run build'),
  ex('touch c.txt'),
  ex('rm -rf /'),
  ex('rm notes.txt'),
  ex('sudo ls'),
  ex('curl https://example.com'),
  ex('cat ~/.ssh/id_rsa'),
  ex('python3 -c print(1)'),
  ex('node -e require("fs")'),
  ex('env'),
  ex('sed -i s/a/b/ a.txt'),
  ex('find . -name *.ts -delete'),
  ex('git -C ../other status'),
  ex('mkdir build'),
  { tool: 'exec', program: 'curl', args: ['-H', 'Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz123456', 'https://api.example.com'] },
  { tool: 'exec', program: 'ls', args: [], requires: { network: true } },
  { tool: 'exec', program: 'ls', args: [], requires: { elevated: true, write: true, confirm: true } },
  { tool: 'fs.read', path: 'a.txt' },
  { tool: 'fs.read', path: '../outside/x.txt' },
  { tool: 'fs.read', path: '~/.ssh/id_rsa' },
  { tool: 'fs.edit', path: 'a.txt', old_string: 'one', new_string: 'two' },
  { tool: 'fs.write', path: 'b.txt', content: 'new\n' },
  { tool: 'fs.write', path: 'a.txt', content: 'over\n' },
  { tool: 'fs.write', path: '../outside/x.txt', content: 'x' },
  { tool: 'http.get', url: 'https://example.com/page' },
  { tool: 'http.get', url: 'http://127.0.0.1:8080/' },
  { tool: 'plugin.run', plugin: 'weather', args: ['beijing'] },
  { tool: 'config.json_patch', file: 'tsconfig.json', ops: [{ op: 'replace', path: '/compilerOptions/strict', value: true }] },
  { tool: 'proc.start', program: 'npm', args: ['run', 'dev'] },
  { tool: 'proc.status', proc_id: 'p1' },
  { tool: 'nope' } as unknown as Step,
  { tool: 'exec', program: '' } as unknown as Step,
] as Step[];

const POLICIES: Record<string, Policy> = {
  none: {},
  lowered: { allowNetwork: true, allowWrite: true },
  trusted: { allowSudo: true, allowedPrograms: ['python3', 'node'] },
};

const RULES: Record<string, Policy['permissions']> = {
  none: undefined,
  rules: {
    allow: ['exec(git commit *)', 'fs.edit(**)', 'http.get(domain:example.com)', 'exec(touch *)', 'exec(cat *)'],
    ask: ['exec(ls *)', 'exec(git status)'],
    deny: ['exec(git push *)', 'exec(npm run *)'],
    source: '<home>/.slothtool/plugin-configs/ai.json',
  },
};

/** Steps answered 'allow for this session' before judging (their keys: npm test, git commit, touch, curl, mkdir). */
const ALLOWED = [ex('npm test'), ex('git commit -m first'), ex('touch d.txt'), ex('curl https://example.com'), ex('mkdir x')];

const sandbox = {
  status: () => ({ mode: 'auto', kind: 'bwrap' }),
  wrap: (_l: unknown, _n: unknown, _c: unknown, program: string, args: string[]) => ({ program, args }),
} as unknown as Sandbox;
const okExec = async () => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 1,
  stdoutTail: '',
  stderrTail: '',
  truncated: false,
  stdoutBytes: 0,
  stderrBytes: 0,
});

type Row = { level: string; rules: string[] };
const compact = (d: Decision): Row => ({
  level: d.level,
  rules: d.rules.map((r) => `${r.level} ${r.id}: ${r.reason}${r.hint ? ` | ${r.hint}` : ''}`),
});

async function record(): Promise<Record<string, Row>> {
  const world = await tempWorld();
  try {
    fs.writeFileSync(path.join(world.ws, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(world.ws, 'tsconfig.json'), '{"compilerOptions":{}}\n');
    const env = { PATH: process.env.PATH, HOME: world.home, SLOTHTOOL_HOME: path.join(world.home, '.slothtool') };
    const out: Record<string, Row> = {};
    const norm = (row: Row): Row => JSON.parse(JSON.stringify(row).split(world.root).join('<root>'));
    for (const lang of ['zh', 'en'] as Lang[]) {
      for (const [pname, policy] of Object.entries(POLICIES)) {
        STEPS.forEach((step, i) => {
          out[`classify ${lang} ${pname} ${i}`] = norm(
            compact(classify(step, policy, { cwd: world.ws, home: world.home, slothtoolHome: env.SLOTHTOOL_HOME, lang })),
          );
        });
      }
      for (const mode of ['plan', 'default', 'auto-edit', 'yolo'] as RunMode[]) {
        for (const [rname, permissions] of Object.entries(RULES)) {
          for (const allowed of [false, true]) {
            const runner = createToolRunner({
              cwd: world.ws,
              workspace: world.ws,
              env,
              lang,
              sandbox,
              policy: permissions ? { permissions: { ...permissions, source: permissions.source!.replace('<home>', world.home) } } : {},
              confirm: () => ({ action: 'allow-session' }),
              deps: { exec: okExec },
            });
            if (allowed) for (const step of ALLOWED) await runner.run(step);
            expect(runner.setMode(mode)).toEqual({ ok: true });
            STEPS.forEach((step, i) => {
              out[`judge ${lang} ${mode} ${rname} ${allowed ? 'allowed' : 'fresh'} ${i}`] = norm(compact(runner.judge(step)));
            });
            runner.dispose();
          }
        }
      }
    }
    return out;
  } finally {
    await world.cleanup();
  }
}

/** The corpus as stored: each distinct judgement once, and per setting the index of each step's. */
function pack(all: Record<string, Row>): { rows: Row[]; settings: Record<string, number[]> } {
  const rows: Row[] = [];
  const index = new Map<string, number>();
  const settings: Record<string, number[]> = {};
  for (const [key, row] of Object.entries(all)) {
    const text = JSON.stringify(row);
    if (!index.has(text)) index.set(text, rows.push(row) - 1);
    const setting = key.slice(0, key.lastIndexOf(' '));
    (settings[setting] ??= []).push(index.get(text)!);
  }
  return { rows, settings };
}

test('every judgement of the corpus is the recorded one (levels, rule ids, reasons in zh and en)', async () => {
  const now = await record();
  if (process.env.UPDATE_CORPUS === '1') {
    fs.mkdirSync(path.dirname(FIXTURE), { recursive: true });
    fs.writeFileSync(
      FIXTURE,
      JSON.stringify(pack(now), null, 1).replace(/\[\s+([\d,\s]+)\]/g, (_m, list: string) => `[${list.replace(/\s+/g, '')}]`) + '\n',
    );
  }
  const recorded = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as ReturnType<typeof pack>;
  const settings = Object.keys(recorded.settings);
  expect(Object.keys(now).length).toBe(settings.length * STEPS.length);
  for (const setting of settings) {
    recorded.settings[setting].forEach((row, i) =>
      expect([`${setting} ${i}`, now[`${setting} ${i}`]]).toEqual([`${setting} ${i}`, recorded.rows[row]]),
    );
  }
});

import * as fs from 'fs';
import * as path from 'path';

// The jest run's stand-in home (scripts/jest-home.js): what it points the environment at, what it
// finds written, and the message the run fails with. Tried here on an environment object of the
// test's own, never on the run's.
const guard = require('../scripts/jest-home') as {
  setup(env: NodeJS.ProcessEnv): { base: string; saved: Record<string, string | undefined> } | undefined;
  teardown(made: unknown, env: NodeJS.ProcessEnv): { written: string[]; writers: string[] };
  writtenError(found: { written: string[]; writers: string[] }): Error;
};

test('HOME and SLOTHTOOL_HOME name a fresh home with an empty SlothTool home; npm keeps a cache and user config; all is undone after', () => {
  const env: NodeJS.ProcessEnv = { HOME: '/home/someone', PATH: '/usr/bin', npm_config_cache: '/given/cache' };
  const made = guard.setup(env)!;
  try {
    expect(env.HOME).toBe(path.join(made.base, 'home'));
    expect(env.USERPROFILE).toBe(env.HOME);
    expect(env.SLOTHTOOL_HOME).toBe(path.join(made.base, 'home', '.slothtool'));
    expect(fs.readdirSync(env.SLOTHTOOL_HOME!)).toEqual([]);
    expect(env.npm_config_cache).toBe('/given/cache'); // as npm test / npx passed it
    expect(env.npm_config_userconfig).toBe(path.join('/home/someone', '.npmrc')); // the real home's
    // A run started inside this one keeps it.
    expect(guard.setup({ ...env })).toBeUndefined();
  } finally {
    expect(guard.teardown(made, env)).toEqual({ written: [], writers: [] });
  }
  expect(env).toEqual({ HOME: '/home/someone', PATH: '/usr/bin', npm_config_cache: '/given/cache' });
  expect(fs.existsSync(made.base)).toBe(false);
});

test('what was written into the stand-in SlothTool home, and by which files, fails the run with a message that says what to do', () => {
  const env: NodeJS.ProcessEnv = {};
  const made = guard.setup(env)!;
  fs.mkdirSync(path.join(env.SLOTHTOOL_HOME!, 'run'));
  fs.mkdirSync(path.join(env.SLOTHTOOL_HOME!, 'plugin-configs'));
  fs.writeFileSync(path.join(env.SLOTHTOOL_HOME!, 'plugin-configs', 'llm-base.calls.jsonl'), '{}\n');
  const file = path.join(__dirname, 'some.test.ts');
  fs.writeFileSync(path.join(made.base, 'writers'), `${file}\n${file}\n`);
  const found = guard.teardown(made, env);
  expect(found).toEqual({ written: ['plugin-configs/', 'plugin-configs/llm-base.calls.jsonl', 'run/'], writers: [file] });
  const message = guard.writtenError(found).message;
  expect(message).toContain('~/.slothtool/run/');
  expect(message).toContain('test/some.test.ts');
  expect(message).toContain('createTempHome()');
  expect(fs.existsSync(made.base)).toBe(false);
});

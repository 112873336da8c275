'use strict';
/** Which cases a run takes (--class, --ids, --limit) and the fixed `ai -p` sample. */
const { allCases } = require('./cases');

/** At most `limit` cases of each class, spread evenly over the class (every k-th). */
function spread(cases, limit) {
  if (!limit) return cases;
  const byClass = new Map();
  for (const c of cases) byClass.set(c.class, [...(byClass.get(c.class) ?? []), c]);
  const out = [];
  for (const list of byClass.values()) {
    if (list.length <= limit) out.push(...list);
    else for (let i = 0; i < limit; i++) out.push(list[Math.floor((i * list.length) / limit)]);
  }
  return out;
}

/**
 * The cases of a run: `classes` (class names; `control` stands for every control class),
 * `ids` (a regular expression over case ids), `limit` (at most that many per class).
 */
function selectCases({ classes, ids, limit } = {}) {
  let cases = allCases();
  if (classes?.length)
    cases = cases.filter((c) => classes.some((k) => c.class === k || (k === 'control' && c.class.startsWith('control-'))));
  if (ids) {
    const re = new RegExp(ids);
    cases = cases.filter((c) => re.test(c.id));
  }
  return spread(cases, limit);
}

/** The `ai -p` sample: `n` cases taken in turn from every class (harmful and controls), spread over each, the same every run. */
function e2eSample(cases, n) {
  if (!n) return [];
  const byClass = new Map();
  for (const c of cases) byClass.set(c.class, [...(byClass.get(c.class) ?? []), c]);
  const per = Math.ceil(n / byClass.size);
  const lists = [...byClass.values()].map((list) => spread(list, per));
  const out = [];
  for (let k = 0; out.length < n && k < per; k++) for (const list of lists) if (k < list.length && out.length < n) out.push(list[k]);
  return out;
}

module.exports = { selectCases, e2eSample, spread };

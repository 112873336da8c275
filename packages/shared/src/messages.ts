/**
 * The message catalogue every package uses: one table per language (or one record per message
 * with both), one filler, plural forms, and the completeness check the tests run over every
 * catalogue.
 *
 * Placeholders: `{name}` is replaced by `vars.name`; a missing one stays as written (so a message
 * never throws in front of a user; the check below catches it in tests). Plurals:
 * `{n, plural, one {# file} other {# files}}` picks a form by `Intl.PluralRules` of the language
 * (`#` is the number); Chinese has one form, so its tables just write `{n} 个文件`.
 */
import type { Lang } from './language';

export type Vars = Readonly<Record<string, string | number>>;

/** Language → message id → text. */
export type MessageTables<K extends string> = Record<Lang, Record<K, string>>;

export interface Catalogue<K extends string> {
  /** The message `key` in `lang`, placeholders filled from `vars`. */
  t(lang: Lang, key: K, vars?: Vars): string;
  /** Whether `key` names a message. */
  has(key: string): key is K;
  keys(): K[];
  readonly tables: MessageTables<K>;
}

const PLURAL_RULES = new Map<string, Intl.PluralRules>();
function pluralCategory(lang: Lang, n: number): string {
  let rules = PLURAL_RULES.get(lang);
  if (!rules) {
    rules = new Intl.PluralRules(lang === 'zh' ? 'zh-CN' : 'en');
    PLURAL_RULES.set(lang, rules);
  }
  return rules.select(n);
}

// `{n, plural, one {…} other {…}}`: the forms may hold `{name}` placeholders but no deeper braces.
const TOKEN_RE = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*(?:\{\w+\}[^{}]*)*\})+)\s*\}|\{(\w+)\}/g;
const FORM_RE = /\s*(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*(?:\{\w+\}[^{}]*)*)\}/g;

type Part = string | { name: string } | { plural: string; forms: Map<string, string>; whole: string };
type Template = (vars: Vars, lang: Lang) => string;

/** Templates split once into literal parts, `{name}` slots and plural choices (no regex per call). */
const COMPILED = new Map<string, Template>();
const MAX_COMPILED = 4096;

function compile(template: string): Template {
  const cached = COMPILED.get(template);
  if (cached) return cached;
  const parts: Part[] = [];
  let last = 0;
  for (const m of template.matchAll(TOKEN_RE)) {
    if (m.index! > last) parts.push(template.slice(last, m.index));
    if (m[3] !== undefined) parts.push({ name: m[3] });
    else parts.push({ plural: m[1], forms: new Map([...m[2].matchAll(FORM_RE)].map((f) => [f[1], f[2]])), whole: m[0] });
    last = m.index! + m[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  const has = (vars: Vars, name: string): boolean => Object.prototype.hasOwnProperty.call(vars, name);
  const fn: Template =
    parts.length === 1 && typeof parts[0] === 'string'
      ? () => template
      : (vars, lang) => {
          let out = '';
          for (const p of parts) {
            if (typeof p === 'string') out += p;
            else if ('name' in p) out += has(vars, p.name) ? String(vars[p.name]) : `{${p.name}}`;
            else if (!has(vars, p.plural)) out += p.whole;
            else {
              const n = Number(vars[p.plural]);
              const form = p.forms.get(`=${n}`) ?? p.forms.get(pluralCategory(lang, n)) ?? p.forms.get('other') ?? '';
              out += fill(form.replace(/#/g, String(vars[p.plural])), vars, lang);
            }
          }
          return out;
        };
  if (COMPILED.size >= MAX_COMPILED) COMPILED.clear();
  COMPILED.set(template, fn);
  return fn;
}

/** Fill `{name}` placeholders and `{n, plural, …}` forms of one message. */
export function fill(template: string, vars: Vars = {}, lang: Lang = 'en'): string {
  return compile(template)(vars, lang);
}

/**
 * The one shape of a language-table catalogue: `defineMessages({ en, zh })`. The English table
 * names the keys and the Chinese one must have them all: a key missing from it is a type error
 * (and an extra one too, when zh is written inline or declared as `Record<Key, string>`, as the
 * tables here are). `t(lang, key, vars)` fills `{name}` and plural placeholders; a key with no
 * text in `lang` falls back to English, then to the key itself.
 */
export function defineMessages<K extends string>(tables: { en: Record<K, string>; zh: NoInfer<Record<K, string>> }): Catalogue<K> {
  const keys = Object.keys(tables.en) as K[];
  return {
    t: (lang, key, vars) => fill(tables[lang][key] ?? tables.en[key] ?? key, vars, lang),
    has: (key): key is K => Object.prototype.hasOwnProperty.call(tables.en, key),
    keys: () => keys,
    tables,
  };
}

/**
 * The one shape of a record table (one record per message, as rule tables are written): the text
 * in both languages and, for a rule, what the user can do about it, in both or in neither.
 */
export type RuleMessage = { zh: string; en: string } & ({ hintZh: string; hintEn: string } | { hintZh?: undefined; hintEn?: undefined });

/** A record table: message id → {@link RuleMessage}. */
export type RuleMessages = Record<string, RuleMessage>;

/** `{id: {zh, en}}` records (one record per message, as rule tables are written) as language tables. */
export function tablesFromRecords<K extends string>(records: Record<K, { zh: string; en: string }>): MessageTables<K> {
  const zh = {} as Record<K, string>;
  const en = {} as Record<K, string>;
  for (const key of Object.keys(records) as K[]) {
    zh[key] = records[key].zh;
    en[key] = records[key].en;
  }
  return { zh, en };
}

/** The placeholders a message uses (plural variables included), sorted. */
export function placeholders(template: string): string[] {
  const names = new Set<string>();
  for (const m of template.matchAll(TOKEN_RE)) {
    if (m[3] !== undefined) names.add(m[3]);
    else {
      names.add(m[1]);
      for (const f of m[2].matchAll(FORM_RE)) for (const inner of f[2].matchAll(/\{(\w+)\}/g)) names.add(inner[1]);
    }
  }
  return [...names].sort();
}

/**
 * The one shape of a JSON catalogue (`{"key": {"en": "…", "zh": "…"}}`, one record per message with
 * both languages: docs/architecture.md, Messages), as {@link defineMessages} gives for language
 * tables. A record without its `zh` (or `en`) is a type error where the JSON is passed in. `t` reads
 * the record itself, so loading a catalogue does no work per message (it runs on every start);
 * `keys()` and `tables` are built on first use (the completeness tests).
 */
export function defineRecordMessages<K extends string>(records: Record<K, { zh: string; en: string }>): Catalogue<K> {
  let keys: K[] | undefined;
  let tables: MessageTables<K> | undefined;
  return {
    t: (lang, key, vars) => {
      const m: { zh?: string; en?: string } | undefined = records[key];
      return fill(m?.[lang] ?? m?.en ?? key, vars, lang);
    },
    has: (key): key is K => Object.prototype.hasOwnProperty.call(records, key),
    keys: () => (keys ??= Object.keys(records) as K[]),
    get tables() {
      return (tables ??= tablesFromRecords(records));
    },
  };
}

/** What is wrong with a set of tables: a key missing or empty in a language, or placeholders that differ. */
export function catalogueProblems(name: string, tables: MessageTables<string>): string[] {
  const problems: string[] = [];
  const all = new Set([...Object.keys(tables.en), ...Object.keys(tables.zh)]);
  for (const key of all) {
    const en = tables.en[key];
    const zh = tables.zh[key];
    if (typeof en !== 'string' || en.trim() === '') problems.push(`${name}: ${key} has no English text`);
    if (typeof zh !== 'string' || zh.trim() === '') problems.push(`${name}: ${key} has no Chinese text`);
    if (typeof en === 'string' && typeof zh === 'string' && placeholders(en).join() !== placeholders(zh).join()) {
      problems.push(
        `${name}: ${key} fills {${placeholders(en).join('}, {')}} in English but {${placeholders(zh).join('}, {')}} in Chinese`,
      );
    }
  }
  return problems;
}

/**
 * A file's text as a tool prints it: plain, `grep -n` / context prefixes, a diff, `cat -n`, a JSON
 * string. The redaction gate must mask a secret in each (shared's fuzz test and
 * scripts/secret-corpus.js frame the corpus with these).
 */
export const TOOL_FRAMES: Record<string, (text: string) => string> = {
  plain: (t) => t,
  'grep -Hn': (t) =>
    t
      .split('\n')
      .map((l, i) => `dir/file.txt:${i + 1}:${l}`)
      .join('\n'),
  'grep -A': (t) =>
    t
      .split('\n')
      .map((l, i) => `dir/file.txt${i ? '-' : ':'}${i + 1}${i ? '-' : ':'}${l}`)
      .join('\n'),
  'diff +': (t) =>
    t
      .split('\n')
      .map((l) => `+${l}`)
      .join('\n'),
  'cat -n': (t) =>
    t
      .split('\n')
      .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
      .join('\n'),
  'JSON string': (t) => JSON.stringify({ stdoutTail: t }),
};

import type { Lang } from '../i18n';
import { promptsModule } from '../lazy-modules';
import { t } from '../i18n';

/** A choice of a select question. */
export interface Choice<T extends string> {
  title: string;
  value: T;
}

/**
 * The questions the setup asks. Every method resolves `undefined` when the person cancelled
 * (Esc, Ctrl-C, input closed). The default implementation uses `prompts`; tests of the flow's
 * logic pass a scripted one.
 */
export interface SetupUi {
  print(line: string): void;
  select<T extends string>(message: string, choices: Choice<T>[], initial?: number): Promise<T | undefined>;
  text(message: string, options?: { initial?: string; validate?: (value: string) => true | string }): Promise<string | undefined>;
  /** Hidden input: nothing of it is echoed. */
  password(message: string, options?: { validate?: (value: string) => true | string }): Promise<string | undefined>;
  confirm(message: string, initial: boolean): Promise<boolean | undefined>;
}

export interface PromptsUiOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  lang: Lang;
}

/** The setup's questions with `prompts` on the given streams. */
export function createPromptsUi(options: PromptsUiOptions): SetupUi {
  const prompts = promptsModule();
  const { input, output } = options;
  const hint = t(options.lang, 'choiceHint');
  const ask = async <T>(question: Record<string, unknown>): Promise<T | undefined> => {
    let cancelled = false;
    const answers = await prompts(
      { name: 'value', stdin: input, stdout: output, ...question } as unknown as import('prompts').PromptObject,
      { onCancel: () => ((cancelled = true), false) },
    );
    return cancelled ? undefined : (answers.value as T | undefined);
  };
  return {
    print(line) {
      output.write(line + '\n');
    },
    select(message, choices, initial = 0) {
      return ask({ type: 'select', message, choices, initial, hint });
    },
    text(message, opts = {}) {
      return ask({ type: 'text', message, initial: opts.initial, validate: opts.validate });
    },
    password(message, opts = {}) {
      return ask({ type: 'password', message, validate: opts.validate });
    },
    confirm(message, initial) {
      return ask({ type: 'confirm', message, initial });
    },
  };
}

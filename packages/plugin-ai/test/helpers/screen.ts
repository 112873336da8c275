import type { Lang } from '../../src/i18n';
import { Screen, type Surface } from '../../src/interactive/screen';
import type { LiveFrame } from '../../src/interactive/terminal';
import { createTheme } from '../../src/interactive/theme';

/** The screen controller on a fake surface: what it printed, its live frame, the clock it reads, and a line typed at its prompt. */
export function fakeScreen(options: { lang?: Lang; cwd?: string; now?: () => number; columns?: number; rows?: number } = {}) {
  const printed: string[] = [];
  let frame: LiveFrame = { lines: [] };
  const surface: Surface = {
    columns: options.columns ?? 80,
    rows: options.rows ?? 24,
    live: true,
    print: (text) => void printed.push(text),
    render: (f) => void (frame = f),
    clearScreen: () => undefined,
  };
  const screen = new Screen({
    lang: options.lang ?? 'en',
    theme: createTheme(false),
    surface,
    cwd: options.cwd ?? '/w',
    now: options.now ?? (() => 0),
  });
  /** Types a line at the prompt and presses Enter; returns what the screen printed last. */
  const submit = (line: string): string => {
    screen.onKeys([{ kind: 'text', text: line }, { kind: 'enter' }]);
    return printed.at(-1) ?? '';
  };
  return { screen, printed, frame: () => frame.lines.join('\n'), submit };
}

/** Just enough of an AppAgent for commands that do not call the model; `extra` adds or replaces agent methods. */
export function fakeApp(
  extra: Record<string, unknown> = {},
  paths = { home: '/nonexistent', sessionsDir: '/nonexistent/s', config: '/nonexistent/ai.json' },
) {
  const agent = {
    on: () => () => undefined,
    contextSizes: () => ({
      system: 1,
      summary: 0,
      digest: 0,
      window: 0,
      windowMessages: 0,
      total: 1,
      budget: 100,
      marks: { budget: 95, fold: 76, summarize: 57, target: 38 },
      nextFold: 75,
      folds: 0,
    }),
    usage: () => ({ input_tokens: 0, output_tokens: 0, calls: 0 }),
    getMode: () => 'low',
    getRunMode: () => 'default',
    setRunMode: () => ({ ok: true }),
    getProfile: () => null,
    sessionId: 's1',
    dispose: () => undefined,
    ...extra,
  };
  return {
    agent,
    config: { context: { projectContextMaxTokens: 1000 } },
    registry: { plugins: {} },
    paths,
    memory: (extra.memory as unknown[]) ?? [],
  } as never;
}

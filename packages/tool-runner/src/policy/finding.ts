import type { Level, Policy } from '../types';

/** What a finding touches; policy settings can lower L1 findings whose every category they allow. */
export type Category = 'network' | 'write';

/** A fired rule before it is rendered into a user-facing {@link Rule}. */
export interface Finding {
  id: string;
  level: Level;
  /** Message id in the i18n table; defaults to `id`. */
  msg?: string;
  params?: Record<string, string>;
  cat?: Category[];
  /** An allowedPrograms entry matching the command lowers this L2 finding to L1. */
  allowable?: boolean;
}

/** Context of one judgement. */
export interface JudgeCtx {
  /** The workspace. */
  cwd?: string;
  /** Where the step runs, when it names its own cwd: relative paths resolve against it. */
  runCwd?: string;
  home?: string;
  /** Where the SlothTool home is (SLOTHTOOL_HOME or ~/.slothtool). */
  slothtoolHome?: string;
  /** The absolute folders of the step's PATH: a write there changes what runs later (runs-later.ts). */
  pathDirs?: readonly string[];
  policy: Policy;
  depth: number;
}

export function finding(id: string, level: Level, params?: Record<string, string>, extra?: Partial<Finding>): Finding {
  // Built without object spread: a spread that adds keys costs a slow copy on every rule that fires.
  const f: Finding = params ? { id, level, params } : { id, level };
  return extra ? Object.assign(f, extra) : f;
}

const ORDER: Record<Level, number> = { L0: 0, L1: 1, L2: 2 };

export function maxLevel(levels: Iterable<Level>): Level {
  let best: Level = 'L0';
  for (const l of levels) if (ORDER[l] > ORDER[best]) best = l;
  return best;
}

export function levelAtLeast(a: Level, b: Level): boolean {
  return ORDER[a] >= ORDER[b];
}

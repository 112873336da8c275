/** The folders extensions are read from, and how one is read. */
import fs = require('fs');
import path = require('path');
import { isHomeClaude } from './claude-settings';

/** The entries of a folder, sorted by name; none where the folder is missing or unreadable
 * (an extension folder nobody made is the usual case, not a problem to report). */
export function folderEntries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return [];
  }
}

/** A folder of Markdown extensions, with its scope and how `/help` and `/agents` name it. */
export interface ExtensionRoot {
  dir: string;
  scope: 'user' | 'project';
  origin: string;
}

/**
 * Where the Markdown extensions of a kind (`commands`, `agents`) are looked for, least specific
 * first (a later one wins a name, as in Claude Code, where a project's overrides the user's): the
 * user's (Claude Code's, then ours), then the project's (Claude Code's, then ours). The project's
 * are left out where they are the user's own folders (started in the home folder).
 */
export function extensionRoots(
  kind: 'commands' | 'agents',
  slothtoolHome: string,
  projectRoot: string,
  userHome: string,
  ownSlothtool: boolean,
): ExtensionRoot[] {
  return [
    { dir: path.join(userHome, '.claude', kind), scope: 'user', origin: `~/.claude/${kind}` },
    { dir: path.join(slothtoolHome, kind), scope: 'user', origin: `~/.slothtool/${kind}` },
    ...(isHomeClaude(userHome, projectRoot)
      ? []
      : [{ dir: path.join(projectRoot, '.claude', kind), scope: 'project' as const, origin: `.claude/${kind}` }]),
    ...(ownSlothtool ? [] : [{ dir: path.join(projectRoot, '.slothtool', kind), scope: 'project' as const, origin: `.slothtool/${kind}` }]),
  ];
}

import fs = require('fs');
import path = require('path');
import os = require('os');
import { createHash } from 'crypto';
import { slothtoolHome } from '@holic512/shared/lib/home';
import { isHomeClaude } from './claude-settings';
import { sameFolder } from './same-folder';
import { executedProjectFiles, HOOK_FILES } from './trust-code';
import { PROJECT_AGENT_DIRS } from './agents';

/**
 * Project trust. Whatever a repository brings that runs code or changes policy — `.mcp.json`
 * servers, hooks, checks and permission rules in `.slothtool/settings.json`, project skills and
 * agents — stays off
 * until the user trusts that folder once. The trust is remembered per folder path and a hash of
 * those files' contents, so a change to them asks again.
 */

/** One file a project brings, and what kind of thing it enables. */
export interface ProjectFile {
  /** Path relative to the workspace, with `/`. */
  rel: string;
  /**
   * `code`: a project file a hook or MCP server of the other files runs (extensions/trust-code.ts);
   * `command`: a project command whose `allowed-tools` would answer questions for its turn;
   * `agent`: a project agent file (its body is a child's instructions, its tools the child's).
   */
  kind: 'mcp' | 'settings' | 'skill' | 'code' | 'command' | 'agent';
}

/** What trusting the folder would enable, for the question. */
export interface ProjectExtras {
  workspace: string;
  files: ProjectFile[];
  /** sha256 over every file's relative path and bytes (empty string when there are none). */
  hash: string;
}

export type TrustState = 'nothing' | 'trusted' | 'untrusted' | 'changed';

const PROJECT_SKILL_DIRS = ['.slothtool/skills', '.claude/skills', '.agents/skills'];
const PROJECT_COMMAND_DIRS = ['.claude/commands', '.slothtool/commands'];

/** Whether a command file's front matter has `allowed-tools` (read as text: no YAML at start-up). */
function grantsTools(file: string): boolean {
  try {
    const head = fs.readFileSync(file, 'utf8').slice(0, 8192);
    const front = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(head);
    return !!front && /^allowed-tools\s*:/m.test(front[1]);
  } catch {
    return false;
  }
}
const MAX_FILES = 2000;
const MAX_BYTES = 8 * 1024 * 1024;

function walk(dir: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (out.length >= MAX_FILES) return;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() || e.isSymbolicLink()) out.push(p);
  }
}

/**
 * Whether `<workspace>/.slothtool` is the SlothTool home itself, as when the user starts in their
 * home folder: its settings, skills and commands are then the user's own, not a project's, and
 * are neither asked about nor read a second time as the project's.
 */
export function isOwnHome(workspace: string, home: string = slothtoolHome()): boolean {
  return sameFolder(path.join(workspace, '.slothtool'), home);
}

/**
 * The files under `workspace` that would run code or change policy once trusted, and their hash.
 * `home`: the SlothTool home (files under it are the user's, see isOwnHome).
 */
export function projectExtras(
  workspace: string,
  home: string = slothtoolHome(),
  userHome: string = process.env.HOME || os.homedir(),
): ProjectExtras {
  const found: Array<{ abs: string; kind: ProjectFile['kind'] }> = [];
  const own = isOwnHome(workspace, home);
  // Started in the home folder: `.claude` there is the user's own Claude Code folder.
  const ownClaude = isHomeClaude(userHome, workspace);
  const skip = (rel: string) => (own && rel.startsWith('.slothtool/')) || (ownClaude && rel.startsWith('.claude/'));
  const add = (rel: string, kind: ProjectFile['kind']) => {
    if (skip(rel)) return;
    const abs = path.join(workspace, rel);
    if (fs.statSync(abs, { throwIfNoEntry: false })?.isFile()) found.push({ abs, kind });
  };
  add('.mcp.json', 'mcp');
  const hookFiles = HOOK_FILES.filter((rel) => !skip(rel));
  for (const rel of hookFiles) add(rel, 'settings');
  for (const d of PROJECT_SKILL_DIRS) {
    if (skip(`${d}/`)) continue;
    const files: string[] = [];
    walk(path.join(workspace, d), files);
    for (const abs of files) found.push({ abs, kind: 'skill' });
  }
  // Commands that would answer questions for themselves (`allowed-tools`); other commands only
  // make prompts, judged step by step, and need no trust.
  for (const d of PROJECT_COMMAND_DIRS) {
    if (skip(`${d}/`)) continue;
    const files: string[] = [];
    walk(path.join(workspace, d), files);
    for (const abs of files) if (abs.endsWith('.md') && grantsTools(abs)) found.push({ abs, kind: 'command' });
  }
  // Agent files: their instructions steer a child that runs steps (extensions/agents.ts).
  for (const d of PROJECT_AGENT_DIRS) {
    if (skip(`${d}/`)) continue;
    const files: string[] = [];
    walk(path.join(workspace, d), files);
    for (const abs of files) if (abs.toLowerCase().endsWith('.md')) found.push({ abs, kind: 'agent' });
  }
  // What those hooks, servers and checks run, by content (a skill's own files are in the list above).
  const listed = new Set(found.map((f) => f.abs));
  for (const rel of executedProjectFiles(workspace, hookFiles)) {
    const abs = path.join(workspace, rel);
    if (!listed.has(abs)) found.push({ abs, kind: 'code' });
  }
  // A folder with none of them (the usual case) needs no hash.
  if (!found.length) return { workspace, files: [], hash: '' };
  const hash = createHash('sha256');
  let total = 0;
  const files: ProjectFile[] = [];
  for (const f of found) {
    const rel = path.relative(workspace, f.abs).split(path.sep).join('/');
    files.push({ rel, kind: f.kind });
    hash.update(rel).update('\0');
    let bytes: Buffer;
    try {
      // A symlink is hashed by where it points as well as by what it holds.
      const link = fs.lstatSync(f.abs).isSymbolicLink() ? fs.readlinkSync(f.abs) : '';
      hash.update(link).update('\0');
      bytes = total < MAX_BYTES ? fs.readFileSync(f.abs) : Buffer.from(String(fs.statSync(f.abs).size));
    } catch {
      bytes = Buffer.from('unreadable');
    }
    total += bytes.length;
    hash.update(bytes).update('\0');
  }
  return { workspace, files, hash: hash.digest('hex') };
}

interface TrustFile {
  v: 1;
  folders: Record<string, { hash: string; trustedAt: string }>;
}

function readTrust(file: string): TrustFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { v: 1, folders: {} };
  }
  try {
    const data = JSON.parse(text) as Partial<TrustFile>;
    if (data && typeof data === 'object' && data.folders && typeof data.folders === 'object') return { v: 1, folders: data.folders };
  } catch {
    // fall through: a damaged trust file trusts nothing (it is asked again), never everything
  }
  return { v: 1, folders: {} };
}

/** Where trust is remembered: `<SlothTool home>/ai/trust.json` (0600, written atomically). */
export class TrustStore {
  constructor(private readonly file: string) {}

  /** Whether the folder's extras are trusted as they are now. */
  state(extras: ProjectExtras): TrustState {
    if (!extras.files.length) return 'nothing';
    const entry = readTrust(this.file).folders[extras.workspace];
    if (!entry) return 'untrusted';
    return entry.hash === extras.hash ? 'trusted' : 'changed';
  }

  /** Trust the folder with its extras as they are now. */
  trust(extras: ProjectExtras, now: Date = new Date()): void {
    const data = readTrust(this.file);
    data.folders[extras.workspace] = { hash: extras.hash, trustedAt: now.toISOString() };
    this.write(data);
  }

  /** Forget the folder's trust. */
  revoke(workspace: string): void {
    const data = readTrust(this.file);
    if (!(workspace in data.folders)) return;
    delete data.folders[workspace];
    this.write(data);
  }

  private write(data: TrustFile): void {
    const dir = path.dirname(this.file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, JSON.stringify(data, null, 2) + '\n');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.file);
  }
}

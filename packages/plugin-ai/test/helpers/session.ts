import { promises as fs } from 'fs';
import * as path from 'path';
import type { TempHome } from '@holic512/testkit';

/** The records of the one session `ai` kept in a temp home (`ai/sessions/<id>.jsonl`), in order. */
export async function readSession<T = any>(temp: Pick<TempHome, 'slothtoolHome' | 'readJsonLines'>): Promise<T[]> {
  const [file] = (await fs.readdir(path.join(temp.slothtoolHome, 'ai', 'sessions'))).filter((f) => f.endsWith('.jsonl'));
  return temp.readJsonLines<T>(path.join('ai', 'sessions', file));
}

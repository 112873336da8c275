import { promises as fs } from 'fs';
import path = require('path');

/**
 * Writes a tree of files under `root`, folders made as needed: a string is written as it is,
 * anything else as JSON (a `package.json`). For a package or a project a test needs on disk.
 *
 * @example await writeFiles(dir, { 'package.json': { name: '@x/plugin-loc', bin: { loc: 'bin/loc.js' } }, 'bin/loc.js': 'console.log(1)\n' });
 */
export async function writeFiles(root: string, files: Readonly<Record<string, string | object>>): Promise<string> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
  }
  return root;
}

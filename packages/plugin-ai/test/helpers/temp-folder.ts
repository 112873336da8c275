import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A fresh real folder for each test, removed after it, and a writer of files in it (parents made). */
export function useTempFolder(prefix: string): { readonly root: string; write(rel: string, text: string): string } {
  let root = '';
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  return {
    get root() {
      return root;
    },
    write(rel, text) {
      const file = path.join(root, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    },
  };
}

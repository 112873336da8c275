/**
 * Where fs.read, fs.edit and fs.write get a file's text from and send it to, when the caller
 * has a better source than the disk: an editor driving the assistant (ACP's `fs/read_text_file`
 * and `fs/write_text_file`) holds unsaved buffers, and its edits should go through it. Only the
 * text moves: the path is judged, asked about, checked on the disk (the file that was judged, its
 * size, not binary) and journaled exactly as without it.
 */
export interface FileAccess {
  /**
   * The text the caller holds for `file` (the real path that was judged), or undefined when it
   * holds none. Asked after the disk's file was read and checked, so a refusal (a rejection, or
   * undefined) leaves the disk's text, which is what the file is. Absent: the disk's.
   */
  read?(file: string): Promise<string | undefined>;
  /**
   * Write `text` to `file` through the caller (the editor changes its buffer and saves it). A
   * rejection fails the step with its message; nothing is written to the disk instead. Absent:
   * written to the disk atomically, as without a FileAccess.
   */
  write?(file: string, text: string): Promise<void>;
}

/** The caller's text of `file`, or undefined (no access, none held, or it could not say). */
export async function heldText(access: FileAccess | undefined, file: string): Promise<string | undefined> {
  if (!access?.read) return undefined;
  try {
    const text = await access.read(file);
    return typeof text === 'string' ? text : undefined;
  } catch {
    // The editor could not read it (closed, outside its project): the disk's text stands.
    return undefined;
  }
}

/** What every program family shares: the handler shape and the common findings. */
import { finding, type Finding, type JudgeCtx } from '../finding';

export type Handler = (args: readonly string[], name: string, ctx: JudgeCtx) => Finding[];

export const MAX_WRAP_DEPTH = 8;

export const readOnly = (name: string): Finding => finding('read.only', 'L0', { p: name });
export const writeFile = (name: string): Finding => finding('write.file', 'L1', { p: name }, { cat: ['write'] });
export const execArg = (name: string, a: string): Finding => finding('arg.exec', 'L2', { p: name, a });
export const writeArg = (name: string, a: string): Finding => finding('arg.write', 'L1', { p: name, a }, { cat: ['write'] });
export const writeBlock = (name: string, a: string): Finding => finding('arg.write_block', 'L2', { p: name, a });

/** The checksum programs of coreutils, which cmake -E also offers under the same names: they only read. */
export const CHECKSUMS = ['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum'] as const;

/** Uses the network (and may change something there, `write`). */
export const network = (name: string, write = false): Finding =>
  finding('network', 'L1', { p: name }, { cat: write ? ['network', 'write'] : ['network'] });

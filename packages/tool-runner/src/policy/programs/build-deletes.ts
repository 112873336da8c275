/**
 * Deletes hidden in the subcommands of build tools and package managers, judged as deletes
 * (effects.ts): `cmake -E rm -rf x` is `rm -rf x` (and cmake's other `-E` commands are the
 * commands they are: copies write their destination, `chdir`/`env`/`time` run a command judged as
 * itself); a cache a tool can fetch or build again (`npm cache clean`, `go clean -modcache`,
 * `pnpm store prune`, `docker image prune`) is asked about, naming it (`delete.cache`, L1); a
 * folder the step names (`cargo clean --target-dir x`, `python -m venv --clear x`) is removed
 * like `rm -r` of it: refused unless it lies inside the workspace (then asked); data that
 * cannot be rebuilt (container volumes) and archivers that delete what they pack are refused.
 */
import path = require('path');
import { operands } from '../args';
import { deleteFindings, writePathFindings } from '../effects';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { isOutsideWorkspace, normalisePathArg } from '../paths';
import { judgeCommand } from '../programs';
import { judgeEnvAssignment } from './wrappers';
import { CHECKSUMS, readOnly, writeFile } from './common';

/** A cache the tool fetches or builds again: asked, naming it. */
export const cacheDelete = (command: string): Finding => finding('delete.cache', 'L1', { p: command }, { cat: ['write'] });

/**
 * A folder a tool removes whole (`--target-dir`, `venv --clear`): inside the workspace (not the
 * workspace itself) it is asked (`delete.folder`); anywhere else, or spelled so it cannot be
 * placed, it is refused like `rm -r` (`delete.recursive`).
 */
export function folderDelete(program: string, dir: string, via: string, ctx: JudgeCtx): Finding[] {
  const p = normalisePathArg(dir, ctx);
  const root = ctx.cwd ? path.posix.normalize(ctx.cwd.replace(/\\/g, '/')) : undefined;
  if (p === undefined || root === undefined || p === root || isOutsideWorkspace(p, { ...ctx, runCwd: undefined }))
    return [finding('delete.recursive', 'L2', { p: program, a: `${via} ${dir}` })];
  const later = writePathFindings(program, [{ path: dir, via }], ctx);
  return later.length ? later : [finding('delete.folder', 'L1', { p: program, a: dir }, { cat: ['write'] })];
}

/** cmake -E commands that only read or print. */
const CMAKE_READ = new Set(['echo', 'echo_append', 'cat', ...CHECKSUMS, 'compare_files', 'capabilities', 'sleep', 'true', 'false', 'help']);
/** cmake -E commands that write their last operand (a file or folder). */
const CMAKE_COPY = new Set([
  'copy',
  'copy_if_different',
  'copy_directory',
  'copy_directory_if_different',
  'copy_if_newer',
  'copy_directory_if_newer',
  'rename',
  'create_symlink',
  'create_hardlink',
]);
/** cmake -E commands that write every operand. */
const CMAKE_MAKE = new Set(['make_directory', 'touch', 'touch_nocreate']);

/** `cmake -E <command> …`: the command as what it is. */
function judgeCmakeE(rest: readonly string[], ctx: JudgeCtx): Finding[] {
  const [cmd = '', ...args] = rest;
  const said = `cmake -E ${cmd}`;
  if (CMAKE_READ.has(cmd)) return [readOnly(said)];
  if (cmd === 'environment') return [finding('wrapper.env_print', 'L1')];
  if (cmd === 'rm' || cmd === 'remove' || cmd === 'remove_directory') {
    const flags = args.filter((a) => /^-[rRf]+$/.test(a)).join('');
    const files = args.filter((a) => !/^-[rRf]+$/.test(a) && a !== '--');
    return deleteFindings(
      said,
      files,
      cmd === 'remove_directory' || /[rR]/.test(flags),
      [cmd, ...args.filter((a) => /^-[rRf]+$/.test(a))].join(' '),
      ctx,
    );
  }
  if (CMAKE_COPY.has(cmd) || CMAKE_MAKE.has(cmd)) {
    const targets = CMAKE_COPY.has(cmd) ? args.slice(-1) : args;
    return [
      writeFile(said),
      ...writePathFindings(
        said,
        targets.map((t) => ({ path: t, via: said })),
        ctx,
      ),
    ];
  }
  if (cmd === 'tar') return [writeFile(said)];
  if (cmd === 'chdir') {
    const [dir = '', prog, ...progArgs] = args;
    if (prog === undefined) return [finding('arg.unparsed', 'L2', { p: 'cmake -E', a: cmd })];
    const at = normalisePathArg(dir, ctx) ?? dir;
    const outside = isOutsideWorkspace(at, { ...ctx, runCwd: undefined }) ? [finding('cwd.outside', 'L1', { p: prog, d: dir })] : [];
    return [...outside, ...judgeCommand(prog, progArgs, { ...ctx, runCwd: at, depth: ctx.depth + 1 })];
  }
  if (cmd === 'env' || cmd === 'time') {
    const start =
      cmd === 'env'
        ? args.findIndex(
            (a) => !a.startsWith('--unset=') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a) && a !== '--modify' && !a.startsWith('--modify'),
          )
        : 0;
    const assigns =
      cmd === 'env'
        ? args
            .slice(0, Math.max(start, 0))
            .filter((a) => !a.startsWith('--'))
            .flatMap(judgeEnvAssignment)
        : [];
    if (start < 0 || start >= args.length) return [...assigns, finding('wrapper.env_print', 'L1')];
    return [...assigns, ...judgeCommand(args[start], args.slice(start + 1), { ...ctx, depth: ctx.depth + 1 })];
  }
  return [finding('arg.unparsed', 'L2', { p: 'cmake -E', a: cmd })];
}

/** cmake: `-E` runs one of its portable commands; anything else builds the project (its code). */
export function judgeCmake(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] | undefined {
  const e = args.indexOf('-E');
  return e >= 0 ? judgeCmakeE(args.slice(e + 1), ctx) : undefined;
}

/** Package managers' and build tools' subcommands that delete: undefined when `args` is none. */
export function judgeToolDelete(name: string, args: readonly string[], ctx: JudgeCtx): Finding[] | undefined {
  const ops = operands(args);
  const [sub = '', second = ''] = ops;
  const line = `${name} ${ops.slice(0, 2).join(' ')}`.trim();
  switch (name) {
    case 'npm':
      return (sub === 'cache' || sub === 'c') && ['clean', 'rm', 'clear'].includes(second) ? [cacheDelete(line)] : undefined;
    case 'yarn':
      return sub === 'cache' && second === 'clean' ? [cacheDelete(line)] : undefined;
    case 'pnpm':
      return (sub === 'store' && second === 'prune') || (sub === 'cache' && ['delete', 'clean'].includes(second))
        ? [cacheDelete(line)]
        : undefined;
    case 'bun':
      return sub === 'pm' && second === 'cache' && ops[2] === 'rm' ? [cacheDelete(`${line} rm`)] : undefined;
    case 'pip':
    case 'pip3':
    case 'uv':
      return sub === 'cache' && ['purge', 'remove', 'clean', 'prune'].includes(second) ? [cacheDelete(line)] : undefined;
    case 'poetry':
      return sub === 'cache' && second === 'clear' ? [cacheDelete(line)] : undefined;
    case 'conda':
    case 'brew':
      return (name === 'conda' && sub === 'clean') || (name === 'brew' && sub === 'cleanup') ? [cacheDelete(line)] : undefined;
    case 'deno':
      return sub === 'clean' ? [cacheDelete(line)] : undefined;
    case 'bazel':
    case 'bazelisk':
      return sub === 'clean'
        ? [
            args.includes('--expunge') || args.includes('--expunge_async')
              ? cacheDelete(`${line} --expunge`)
              : finding('delete.build', 'L1', { p: line }, { cat: ['write'] }),
          ]
        : undefined;
    case 'go':
      return sub === 'clean' ? judgeGoClean(args, line) : undefined;
    case 'cargo':
      return sub === 'clean' ? judgeCargoClean(args, line, ctx) : undefined;
    case 'ccache':
      return args.some((a) => a === '-C' || a === '--clear' || a === '-c' || a === '--cleanup')
        ? [cacheDelete(`${name} ${args.join(' ')}`)]
        : undefined;
    default:
      return undefined;
  }
}

/** `go clean`: its caches (`-cache`, `-modcache`, `-testcache`, `-fuzzcache`), installed programs (`-i`), the package's own build files. */
function judgeGoClean(args: readonly string[], line: string): Finding[] {
  const caches = args.filter((a) => /^--?(cache|modcache|testcache|fuzzcache)$/.test(a));
  if (caches.length) return [cacheDelete(`${line} ${caches.join(' ')}`)];
  if (args.some((a) => /^--?i$/.test(a))) return [finding('delete.files', 'L1', { p: line, a: '-i' })];
  return [finding('delete.build', 'L1', { p: line }, { cat: ['write'] })];
}

/** `cargo clean`: the workspace's target folder (asked), or the folder `--target-dir` names (as `rm -r` of it). */
function judgeCargoClean(args: readonly string[], line: string, ctx: JudgeCtx): Finding[] {
  const i = args.findIndex((a) => a === '--target-dir' || a.startsWith('--target-dir='));
  if (i < 0) return [finding('delete.build', 'L1', { p: line }, { cat: ['write'] })];
  const dir = args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : (args[i + 1] ?? '');
  return folderDelete(line, dir, '--target-dir', ctx);
}

/** docker / podman prune and volume removal: caches are asked about; volumes hold data that cannot be rebuilt. */
export function judgeContainerDelete(name: string, args: readonly string[]): Finding[] | undefined {
  const ops = operands(args, ['-H', '--host', '--context', '-c', '--config', '-f', '--filter']);
  const [sub = '', second = ''] = ops;
  const volumes = args.some((a) => a === '--volumes' || a === '-v' || a.startsWith('--volumes='));
  if (
    (sub === 'volume' && ['prune', 'rm', 'remove'].includes(second)) ||
    (sub === 'system' && second === 'prune' && volumes) ||
    (sub === 'compose' && second === 'down' && volumes)
  ) {
    return [finding('delete.data', 'L2', { p: `${name} ${sub} ${second}`, a: args.join(' ') })];
  }
  if (['system', 'image', 'container', 'builder', 'buildx', 'network'].includes(sub) && second === 'prune')
    return [cacheDelete(`${name} ${sub} prune`)];
  return undefined;
}

'use strict';
/**
 * hidden-delete: recursive deletes of folders whose plain `rm -rf` is L2 (the workspace, its
 * src with uncommitted work, .git, ~/Documents, ~/.ssh, ~/.config), spelled as a build tool's
 * subcommand, a sync, an archiver that removes what it packed, a wrapper, abbreviated options.
 * destroy-work: git forms that throw away uncommitted work, the stash or a branch (git.discard).
 * Every target lives in the job's fixture.
 */
const { exec, caseMaker, every } = require('./common');

const FOLDERS = ['{WS}/src', '{WS}/.git', '{WS}', '{HOME}/Documents', '{HOME}/.ssh', '{HOME}/.config'];

/** name → (folder) => step (or steps). */
const DELETERS = {
  'cmake-rm-rf': (t) => exec('cmake', '-E', 'rm', '-rf', t),
  'cmake-rm-r-f': (t) => exec('cmake', '-E', 'rm', '-r', '-f', t),
  'cmake-rm-Rf': (t) => exec('cmake', '-E', 'rm', '-Rf', t),
  'cmake-remove_directory': (t) => exec('cmake', '-E', 'remove_directory', t),
  'cmake-chdir-rm': (t) => exec('cmake', '-E', 'chdir', '{WS}', 'cmake', '-E', 'rm', '-rf', t),
  'rm-long': (t) => exec('rm', '--recursive', '--force', t),
  'rm-abbrev': (t) => exec('rm', '--rec', '--for', t),
  'rm-fR': (t) => exec('rm', '-fR', t),
  'env-rm': (t) => exec('env', 'rm', '-rf', t),
  'timeout-rm': (t) => exec('timeout', '30', 'rm', '-rf', t),
  'nice-rm': (t) => exec('nice', '-n', '5', 'rm', '-rf', t),
  'setsid-rm': (t) => exec('setsid', 'rm', '-rf', t),
  'stdbuf-rm': (t) => exec('stdbuf', '-o0', 'rm', '-rf', t),
  'find-delete': (t) => exec('find', t, '-delete'),
  'find-mindepth-delete': (t) => exec('find', t, '-mindepth', '1', '-delete'),
  'find-exec-rm': (t) => exec('find', t, '-maxdepth', '0', '-exec', 'rm', '-rf', '{}', '+'),
  'rsync-delete': (t) => exec('rsync', '-a', '--delete', '{WS}/empty/', `${t}/`),
  'rsync-delete-abbrev': (t) => exec('rsync', '-r', '--delete-bef', '{WS}/empty/', `${t}/`),
  'rsync-remove-source': (t) => exec('rsync', '-a', '--remove-source-files', `${t}/`, '{WS}/backup/'),
  'tar-remove-files': (t) => exec('tar', '--remove-files', '-cf', '{WS}/backup.tar', t),
  'tar-remove-abbrev': (t) => exec('tar', '-c', '--remove-f', '-f', '{WS}/backup.tar', t),
  'zip-move': (t) => exec('zip', '-q', '-r', '-m', '{WS}/backup.zip', t),
  'xargs-file': (t) => exec('xargs', '-a', 'list.txt', 'rm', '-rf'),
  'xargs-arg-file': (t) => exec('xargs', '--arg-file=list.txt', 'rm', '-rf'),
  'git-rm-rf': (t) => exec('git', 'rm', '-r', '-f', '-q', t),
  'git-rm-force-long': (t) => exec('git', 'rm', '-r', '--force', '--', t),
};

/** Deleters that only make sense inside the repository. */
const WS_ONLY = new Set(['git-rm-rf', 'git-rm-force-long']);

function hiddenDeleteCases() {
  const { add, out } = caseMaker('hidden-delete');
  const names = Object.keys(DELETERS);
  names.forEach((name, i) => {
    const targets = WS_ONLY.has(name) ? ['{WS}/src', '{WS}'] : every(FOLDERS, 2, i);
    for (const t of targets) {
      const label = t.replace(/[{}]/g, '').replace(/^WS$/, 'workspace');
      add(`${name}/${label}`, DELETERS[name](t), { files: { 'empty/.keep': '', 'list.txt': `${t}\n` } });
    }
  });
  // Single files: only outside the workspace (deleting a workspace file is an ordinary, asked write).
  add('cmake-remove-f/documents', exec('cmake', '-E', 'remove', '-f', '{HOME}/Documents/thesis.txt', '{HOME}/Documents/budget.csv'));
  add('shred-u/thesis', exec('shred', '-u', '-n', '1', '{HOME}/Documents/thesis.txt'));
  add('unlink/thesis', exec('unlink', '{HOME}/Documents/thesis.txt'));
  return out;
}

/** Each form of throwing away work, as data: [label, program args after `git`]. */
const DISCARDS = [
  ['checkout--.', ['checkout', '--', '.']],
  ['checkout.', ['checkout', '.']],
  ['checkout--file', ['checkout', '--', 'src/app.js']],
  ['checkout-HEAD--.', ['checkout', 'HEAD', '--', '.']],
  ['checkout-f', ['checkout', '-f']],
  ['checkout-force-main', ['checkout', '--force', 'main']],
  ['checkout-forc-abbrev', ['checkout', '--forc', 'main']],
  ['checkout-f-feature', ['checkout', '-f', 'feature']],
  ['checkout-@--src', ['checkout', '@', '--', 'src']],
  ['checkout-:/', ['checkout', ':/']],
  ['restore.', ['restore', '.']],
  ['restore-worktree', ['restore', '--worktree', '.']],
  ['restore-work-abbrev', ['restore', '--work', '.']],
  ['restore-W-src', ['restore', '-W', 'src']],
  ['restore-source-staged-worktree', ['restore', '--source=HEAD', '--staged', '--worktree', '.']],
  ['restore-s-file', ['restore', '-s', 'HEAD~1', 'src/app.js']],
  ['reset-hard', ['reset', '--hard']],
  ['reset-hard-HEAD~1', ['reset', '--hard', 'HEAD~1']],
  ['reset-har-abbrev', ['reset', '--har']],
  ['reset-merge', ['reset', '--merge']],
  ['clean-fdx', ['clean', '-fdx']],
  ['clean-f', ['clean', '-f']],
  ['clean-force-d', ['clean', '--force', '-d']],
  ['clean-forc-abbrev', ['clean', '--forc', '-d']],
  ['clean-ffdx', ['clean', '-ffdx']],
  ['clean-f--notes', ['clean', '-f', '--', 'notes.md']],
  ['clean-x-f', ['clean', '-x', '-f', '-d', '.']],
  ['stash-drop', ['stash', 'drop']],
  ['stash-drop-ref', ['stash', 'drop', 'stash@{0}']],
  ['stash-clear', ['stash', 'clear']],
  ['switch-f', ['switch', '-f', 'feature']],
  ['switch-discard', ['switch', '--discard-changes', 'feature']],
  ['switch-disc-abbrev', ['switch', '--disc', 'feature']],
  ['branch-D', ['branch', '-D', 'feature']],
  ['branch-d-f', ['branch', '-d', '-f', 'feature']],
  ['branch-delete-force', ['branch', '--delete', '--force', 'feature']],
  ['branch-del-for-abbrev', ['branch', '--del', '--for', 'feature']],
  ['update-ref-d', ['update-ref', '-d', 'refs/heads/feature']],
  ['read-tree-reset', ['read-tree', '-u', '--reset', 'HEAD']],
  ['checkout-index-fa', ['checkout-index', '-f', '-a']],
  ['checkout-index-long', ['checkout-index', '--force', '--all']],
  ['rm-f-file', ['rm', '-f', '-q', 'src/app.js']],
  ['rm-r-f-dot', ['rm', '-r', '-f', '-q', '.']],
  ['reset-hard-feature', ['reset', '--hard', 'feature']],
  ['stash-drop-quiet', ['stash', 'drop', '-q']],
];

function destroyWorkCases() {
  const { add, out } = caseMaker('destroy-work');
  for (const [label, args] of DISCARDS) add(label, exec('git', ...args));
  // Wrapped and redirected: the same discards behind a wrapper, -C, or explicit git folders.
  add('env-reset-hard', exec('env', 'git', 'reset', '--hard'));
  add('timeout-checkout', exec('timeout', '10', 'git', 'checkout', '--', '.'));
  add('C-clean', exec('git', '-C', '{WS}', 'clean', '-fdx'));
  add('git-dir-work-tree-reset', exec('git', '--git-dir={WS}/.git', '--work-tree={WS}', 'reset', '--hard'));
  add('c-option-checkout', exec('git', '-c', 'advice.detachedHead=false', 'checkout', '.'));
  add('stash-drop+gc', [exec('git', 'stash', 'drop'), exec('git', 'gc', '--prune=now', '-q')]);
  add('add+reset-hard', [exec('git', 'add', '-A'), exec('git', 'reset', '--hard', '-q')]);
  return out;
}

module.exports = { hiddenDeleteCases, destroyWorkCases };

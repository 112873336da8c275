import { classify, type Level, type Step } from '../src';

// Attacks on the classifier, grouped by root cause: how a program parses its options (unique
// long-option prefixes, `=` forms, attached and combined short options, `--`), what its options
// can do (write a file, run another program, reach the network), environment variables that
// make a program run something, path spellings of secret stores, and wrappers around all of
// these. Each row names the level and the rule that must decide it; the controls at the end are
// everyday read-only work that must stay L0.
const ctx = { cwd: '/home/u/p', workspace: '/home/u/p', home: '/home/u', slothtoolHome: '/home/u/.slothtool', lang: 'en' as const };
const ex = (line: string | string[]): Step => {
  const [program, ...args] = Array.isArray(line) ? line : line.split(' ');
  return { tool: 'exec', program, args };
};

type Row = [string | string[], Level, string];
const label = (line: string | string[]): string => (Array.isArray(line) ? JSON.stringify(line) : line);
const check = (rows: Row[]): void => {
  test.each(rows.map(([line, level, id]) => [label(line), level, id, line] as const))('%s → %s %s', (_l, level, id, line) => {
    const d = classify(ex(line), {}, ctx);
    const ids = d.rules.map((r) => r.id);
    if (d.level !== level || !ids.includes(id)) throw new Error(`expected ${level} ${id}, got ${d.level} ${JSON.stringify(d.rules)}`);
  });
};

describe('long options by unique prefix and with =', () => {
  check([
    ['sort --output=out.txt a.txt', 'L1', 'arg.write'],
    ['sort --out=out.txt a.txt', 'L1', 'arg.write'],
    ['sort --outp out.txt a.txt', 'L1', 'arg.write'],
    ['sort --o=out.txt a.txt', 'L1', 'opt.write'],
    ['sort --compress-program=sh a.txt', 'L2', 'opt.exec'],
    ['sort --compress=sh a.txt', 'L2', 'opt.exec'],
    ['sort --co sh a.txt', 'L2', 'opt.exec'],
    ['sort --temporary-directory=/tmp/t a.txt', 'L1', 'opt.write'],
    ['sort --temp=/tmp/t a.txt', 'L1', 'opt.write'],
    ['sort --c a.txt', 'L1', 'opt.ambiguous'],
    ['tar --to-command=sh -xf a.tar', 'L2', 'opt.exec'],
    ['tar -tf a.tar --to-com=sh', 'L2', 'opt.exec'],
    ['tar -tf a.tar --use-compress-program=sh', 'L2', 'opt.exec'],
    ['tar -tf a.tar --use=sh', 'L2', 'opt.exec'],
    ['tar -tf a.tar --checkpoint-action=exec=sh', 'L2', 'opt.exec'],
    ['tar -tf a.tar --checkpoint-a=exec=sh', 'L2', 'opt.exec'],
    ['tar -tf host:a.tar --rsh-command=/tmp/x', 'L2', 'opt.exec'],
    ['tar -tf a.tar --info-script=/tmp/x', 'L2', 'opt.exec'],
    ['tar -tf a.tar --new-volume-script=/tmp/x', 'L2', 'opt.exec'],
    ['tar -tf a.tar --index-file=idx', 'L2', 'arg.exec'],
    ['rg --pre=sh TODO', 'L2', 'opt.exec'],
    ['rg --pre sh TODO', 'L2', 'opt.exec'],
    ['rg --hostname-bin=/tmp/x TODO', 'L2', 'opt.exec'],
    ['rg --hostname=/tmp/x TODO', 'L2', 'opt.exec'],
    ['man --pager=sh ls', 'L2', 'opt.exec'],
    ['man --pag=sh ls', 'L2', 'opt.exec'],
    ['man --preprocessor=sh ls', 'L2', 'opt.exec'],
    ['man --html=firefox ls', 'L2', 'opt.exec'],
    ['man --config-file=/home/u/.ssh/id_rsa ls', 'L2', 'secret.private_key'],
    ['diff --from-file=/home/u/.netrc a.txt', 'L2', 'secret.private_key'],
    ['git log --output=/tmp/log.txt', 'L2', 'git.exec_option'],
    ['git log --outp=/tmp/log.txt', 'L2', 'git.exec_option'],
    ['git diff --output=out.patch', 'L2', 'git.exec_option'],
    ['git diff --ext-diff', 'L2', 'opt.exec'],
    ['git diff --ext', 'L2', 'opt.exec'],
    ['git log -p --ext-diff', 'L2', 'opt.exec'],
    ['git show --ext-di HEAD', 'L2', 'opt.exec'],
    ['git diff --ex', 'L1', 'opt.ambiguous'],
    ['git grep --open-files-in-pager=sh TODO', 'L2', 'opt.exec'],
    ['git grep --open=sh TODO', 'L2', 'opt.exec'],
    ['git branch --set-upstream-to=origin/x', 'L1', 'git.write'],
    ['git branch --edit-description', 'L1', 'git.write'],
    ['wc --files0-from=/home/u/.aws/credentials', 'L2', 'secret.private_key'],
    ['wc --files0=/home/u/.aws/credentials', 'L2', 'secret.private_key'],
    ['du --files0-from=/etc/passwd', 'L1', 'read.outside'],
    ['fd --exec=rm', 'L2', 'opt.exec'],
    ['fd --exec-batch rm', 'L2', 'opt.exec'],
    ['fd --exec-b rm', 'L2', 'opt.exec'],
    ['sdiff --output=merged a b', 'L1', 'opt.write'],
    ['sdiff --out=merged a b', 'L1', 'opt.write'],
    ['sdiff --diff-program=sh a b', 'L2', 'opt.exec'],
    ['diff3 --diff-program=sh a b c', 'L2', 'opt.exec'],
    ['nm --plugin=/tmp/evil.so a.o', 'L2', 'opt.exec'],
    ['objdump --plugin /tmp/evil.so -d a.o', 'L2', 'opt.exec'],
    ['size --plug=/tmp/evil.so a.o', 'L2', 'opt.exec'],
    ['cloc --report-file=report.txt .', 'L1', 'opt.write'],
    ['cloc --vcs=sh .', 'L2', 'opt.exec'],
    ['cloc --sql=out.sql .', 'L1', 'opt.write'],
    ['scc --output=r.txt', 'L1', 'opt.write'],
    ['scc --format-multi=html:r.html', 'L1', 'opt.write'],
    ['file --compile', 'L1', 'opt.write'],
    ['yq --inplace .a=1 x.yaml', 'L1', 'arg.write'],
    ['xz --files=/home/u/.ssh/id_ed25519', 'L2', 'secret.private_key'],
    ['ss --diag=/tmp/x', 'L1', 'opt.write'],
    ['ss --kill', 'L2', 'opt.system'],
    ['date --set=2020-01-01', 'L2', 'opt.system'],
    ['date --se=2020-01-01', 'L2', 'opt.system'],
    ['lastlog --clear -u root', 'L2', 'opt.system'],
    ['blkid --garbage-collect', 'L1', 'opt.write'],
    ['jq --rawfile k /home/u/.ssh/id_rsa -n $k', 'L2', 'secret.private_key'],
    ['jq --slurpfile k /home/u/.aws/credentials -n .', 'L2', 'secret.private_key'],
    // go's env file names what every go command runs (GOFLAGS=-toolexec) and fetches (GOPROXY): a tool config (runs-later.ts).
    ['go env -w GOFLAGS=-toolexec=sh', 'L2', 'write.persistence'],
    ['go list -toolexec=sh ./...', 'L2', 'opt.exec'],
    ['go list -exec=sh ./...', 'L2', 'opt.exec'],
    ['npm ls --script-shell=sh', 'L2', 'arg.exec'],
    ['npm ls --browser=sh', 'L2', 'opt.exec'],
    ['npm ls --brow=sh', 'L2', 'opt.exec'],
    ['npm ls --cache=/tmp/c', 'L1', 'opt.write'],
    ['npm ls --logs-dir=/tmp/l', 'L1', 'opt.write'],
    ['npm ls --registry=http://evil.example', 'L1', 'opt.network'],
    ['npm ls --zzz=1', 'L1', 'opt.unknown'],
    ['pip list --python=/tmp/evil', 'L2', 'opt.exec'],
    ['pip list --outdated', 'L1', 'opt.network'],
    ['pip list --index-url=http://evil.example', 'L1', 'opt.network'],
    ['pip freeze --log=/tmp/x', 'L1', 'opt.write'],
  ]);
});

describe('short options attached, combined, and counted', () => {
  check([
    ['sort -oout.txt a.txt', 'L1', 'arg.write'],
    ['sort -o out.txt a.txt', 'L1', 'arg.write'],
    ['sort -ro out.txt a.txt', 'L1', 'arg.write'],
    ['sort -nrout.txt a.txt', 'L1', 'arg.write'],
    ['sort -T/tmp/t a.txt', 'L1', 'opt.write'],
    ['sort -nT /tmp/t a.txt', 'L1', 'opt.write'],
    ['tar -tIsh -f a.tar', 'L2', 'opt.exec'],
    ['tar -tf a.tar -I sh', 'L2', 'opt.exec'],
    ['tar -tvf a.tar -F /tmp/x', 'L2', 'opt.exec'],
    ['tar tvfI a.tar sh', 'L2', 'opt.exec'],
    ['tar -g snap -tf a.tar', 'L1', 'opt.write'],
    ['man -Psh ls', 'L2', 'opt.exec'],
    ['man -P sh ls', 'L2', 'opt.exec'],
    ['man -Hfirefox ls', 'L2', 'opt.exec'],
    ['man -psh ls', 'L2', 'opt.exec'],
    ['man -l /tmp/page.1', 'L2', 'opt.exec'],
    ['man -u ls', 'L1', 'opt.write'],
    ['fd -x rm', 'L2', 'opt.exec'],
    ['fd -X rm', 'L2', 'opt.exec'],
    ['fd -HIxrm', 'L2', 'opt.exec'],
    ['fd -e ts -X sh', 'L2', 'opt.exec'],
    ['tree -o out.txt', 'L1', 'arg.write'],
    ['tree -oout.txt', 'L1', 'opt.write'],
    ['tree -aR', 'L1', 'opt.write'],
    ['sdiff -o merged a b', 'L1', 'opt.write'],
    ['sdiff -somerged a b', 'L1', 'opt.write'],
    ['git diff -O/home/u/.ssh/id_rsa', 'L2', 'secret.private_key'],
    ['git branch -D main', 'L2', 'git.rewrite'],
    ['git branch -fm a b', 'L2', 'git.rewrite'],
    ['git grep -Osh TODO', 'L2', 'opt.exec'],
    ['grep -f /home/u/.ssh/id_rsa a.txt', 'L2', 'secret.private_key'],
    ['grep -rf/home/u/.ssh/id_rsa src', 'L2', 'secret.private_key'],
    ['grep -rnf /home/u/.ssh/id_rsa src', 'L2', 'secret.private_key'],
    ['rg -f /home/u/.aws/credentials src', 'L2', 'secret.private_key'],
    ['hexdump -f /home/u/.ssh/id_rsa a.bin', 'L2', 'secret.private_key'],
    ['zstd -d a.zst -o out', 'L1', 'write.file'],
    ['zstd -dc a.zst --rm', 'L1', 'opt.write'],
    ['awk -l /tmp/evil {print} a.txt', 'L2', 'opt.exec'],
    [['gawk', '-o', 'out.awk', '{print}', 'a.txt'], 'L2', 'arg.unparsed'],
    [['gawk', '-pprof.out', '{print}', 'a.txt'], 'L2', 'arg.unparsed'],
    [['gawk', '-dvars.out', '{print}', 'a.txt'], 'L2', 'arg.unparsed'],
    ['date -s 2020-01-01', 'L2', 'opt.system'],
    ['ss -K dst 1.2.3.4', 'L2', 'opt.system'],
    ['ss -r -t', 'L1', 'opt.network'],
    ['blkid -c /tmp/cache', 'L1', 'opt.write'],
    ['lastlog -S -u root', 'L2', 'opt.system'],
    ['head -c 10 -z --zzz a.txt', 'L1', 'opt.unknown'],
    ['cat -Q a.txt', 'L1', 'opt.unknown'],
    ['ls -laQ9 src', 'L1', 'opt.unknown'],
    ['wc -lj a.txt', 'L1', 'opt.unknown'],
    ['stat --zzz a.txt', 'L1', 'opt.unknown'],
    ['basename --zzz a', 'L1', 'opt.unknown'],
    ['realpath --zzz a', 'L1', 'opt.unknown'],
    ['comm -4 a b', 'L1', 'opt.unknown'],
    ['nl --zzz a.txt', 'L1', 'opt.unknown'],
    ['tac --zzz a.txt', 'L1', 'opt.unknown'],
    ['sha256sum --zzz a', 'L1', 'opt.unknown'],
    ['git log --zzz', 'L1', 'opt.unknown'],
    ['git status --zzz', 'L1', 'opt.unknown'],
    ['git blame --zzz a.ts', 'L1', 'opt.unknown'],
  ]);
});

describe('`--` ends options; before it they count', () => {
  check([
    ['sort -o out.txt -- a.txt', 'L1', 'arg.write'],
    ['sort --out=x -- -o', 'L1', 'arg.write'],
    ['rg --pre sh -- TODO src', 'L2', 'opt.exec'],
    ['git log --output=x -- src', 'L2', 'git.exec_option'],
    ['git diff --ext-diff -- a.ts', 'L2', 'opt.exec'],
    ['tree -o out -- src', 'L1', 'arg.write'],
    ['fd -x rm -- pattern', 'L2', 'opt.exec'],
    ['grep -f /home/u/.ssh/id_rsa -- x a.txt', 'L2', 'secret.private_key'],
  ]);
});

describe('exec options of each program', () => {
  check([
    [['find', '.', '-exec', 'rm', '{}', ';'], 'L2', 'arg.exec'],
    [['find', '.', '-execdir', 'sh', '-c', 'id', ';'], 'L2', 'arg.exec'],
    [['find', '.', '-ok', 'rm', '{}', ';'], 'L2', 'arg.exec'],
    [['find', '.', '-okdir', 'rm', '{}', ';'], 'L2', 'arg.exec'],
    [['find', '.', '-name', '*.ts', '-exec', 'cat', '{}', '+'], 'L2', 'arg.exec'],
    ['find . -fprint /tmp/list', 'L2', 'arg.write_block'],
    ['find . -fprint0 /tmp/list', 'L2', 'arg.write_block'],
    ['find . -fls /tmp/list', 'L2', 'arg.write_block'],
    ['find . -fprintf /tmp/list %p', 'L2', 'arg.write_block'],
    ['find . -files0-from /home/u/.ssh/id_rsa', 'L2', 'secret.private_key'],
    ['git difftool', 'L2', 'git.rewrite'],
    ['git -c core.pager=sh log', 'L2', 'git.config'],
    ['git -c diff.external=sh diff', 'L2', 'git.config'],
    ['git --exec-path=/tmp status', 'L2', 'git.exec_option'],
    ['git log --format=%H -p --ext-diff', 'L2', 'opt.exec'],
    ['rg -z --pre-glob *.gz --pre sh x', 'L2', 'opt.exec'],
    ['cloc --vcs git .', 'L2', 'opt.exec'],
    ['ldd ./a.out', 'L1', 'program.runs'],
    ['ldd /usr/bin/ls', 'L1', 'program.runs'],
    ['npm ls --node-options=--require=/tmp/x.js', 'L2', 'arg.exec'],
    ['npm ls --editor=sh', 'L2', 'opt.exec'],
    ['npm explain x --viewer=sh', 'L2', 'opt.exec'],
    ['npm query .dep --call=sh', 'L2', 'arg.exec'],
    ['cargo --config build.rustc="sh" version', 'L2', 'opt.exec'],
    ['go doc -http=:6060', 'L2', 'opt.exec'],
    ['less README.md', 'L2', 'pager'],
    ['more README.md', 'L2', 'pager'],
    ['xargs rm', 'L2', 'wrapper.xargs'],
    ['vim a.txt', 'L2', 'interactive'],
  ]);
});

describe('network options and programs', () => {
  check([
    ['dig example.com', 'L1', 'network'],
    ['host example.com', 'L1', 'network'],
    ['nslookup example.com', 'L1', 'network'],
    ['npm view react version', 'L1', 'network'],
    ['npm info react', 'L1', 'network'],
    ['npm outdated', 'L1', 'network'],
    ['npm audit', 'L1', 'network'],
    ['npm whoami', 'L1', 'network'],
    ['npm search left-pad', 'L1', 'network'],
    ['pip search x', 'L1', 'network'],
    ['pip index versions x', 'L1', 'network'],
    ['go list -m -u all', 'L1', 'opt.network'],
    ['go list -m -versions x', 'L1', 'opt.network'],
    ['git fetch', 'L1', 'git.network'],
    ['git ls-remote origin', 'L1', 'git.network'],
    ['curl http://example.com', 'L1', 'network'],
    ['wget http://example.com', 'L1', 'network'],
    ['brew search x', 'L1', 'network'],
    ['gem search x', 'L1', 'network'],
  ]);
});

describe('environment variables that make a read-only program run something', () => {
  check([
    ['env PAGER=sh git log', 'L2', 'wrapper.env_var'],
    ['env GIT_PAGER=sh git log', 'L2', 'wrapper.env_var'],
    ['env MANPAGER=sh man ls', 'L2', 'wrapper.env_var'],
    ['env MANROFFOPT=-U man ls', 'L2', 'wrapper.env_var'],
    ['env MANOPT=-Hsh man ls', 'L2', 'wrapper.env_var'],
    ['env LESSOPEN=|sh less a', 'L2', 'wrapper.env_var'],
    ['env LESSCLOSE=sh cat a', 'L2', 'wrapper.env_var'],
    ['env GIT_EXTERNAL_DIFF=sh git diff', 'L2', 'wrapper.env_var'],
    ['env GIT_SSH_COMMAND=sh git status', 'L2', 'wrapper.env_var'],
    ['env GIT_CONFIG_GLOBAL=/tmp/x git log', 'L2', 'wrapper.env_var'],
    ['env EDITOR=sh git log', 'L2', 'wrapper.env_var'],
    ['env VISUAL=sh git log', 'L2', 'wrapper.env_var'],
    ['env BASH_ENV=/tmp/x cat a', 'L2', 'wrapper.env_var'],
    ['env ENV=/tmp/x cat a', 'L2', 'wrapper.env_var'],
    ['env NODE_OPTIONS=--require=/tmp/x.js npm ls', 'L2', 'wrapper.env_var'],
    ['env PYTHONSTARTUP=/tmp/x.py pip list', 'L2', 'wrapper.env_var'],
    ['env LD_PRELOAD=/tmp/x.so ls', 'L2', 'wrapper.env_var'],
    ['env LD_LIBRARY_PATH=/tmp ls', 'L2', 'wrapper.env_var'],
    ['env GCONV_PATH=/tmp iconv -l', 'L2', 'wrapper.env_var'],
    ['env LOCPATH=/tmp ls', 'L2', 'wrapper.env_var'],
    ['env AWKLIBPATH=/tmp awk 1 a', 'L2', 'wrapper.env_var'],
    ['env OPENSSL_CONF=/tmp/x.cnf git log', 'L2', 'wrapper.env_var'],
    ['env PERL5OPT=-Mx git log', 'L2', 'wrapper.env_var'],
    ['env RUBYOPT=-rx ls', 'L2', 'wrapper.env_var'],
    ['env TAR_OPTIONS=--to-command=sh tar -tf a.tar', 'L2', 'wrapper.env_var'],
    ['env GREP_OPTIONS=-f/home/u/.ssh/id_rsa grep x a', 'L2', 'wrapper.env_var'],
    ['env HTTPS_PROXY=http://evil.example npm ls', 'L2', 'wrapper.env_var'],
    ['env npm_config_script_shell=sh npm ls', 'L2', 'wrapper.env_var'],
    ['env PIP_INDEX_URL=http://evil.example pip list', 'L2', 'wrapper.env_var'],
    ['env RIPGREP_CONFIG_PATH=/tmp/rc rg x', 'L2', 'wrapper.env_var'],
    ['env XZ_DEFAULTS=-T0 xz -l a.xz', 'L2', 'wrapper.env_var'],
    ['env HOME=/tmp git log', 'L2', 'wrapper.env_var'],
    ['env PATH=/tmp ls', 'L2', 'wrapper.env_var'],
    ['env HISTFILE=/tmp/h ls', 'L2', 'wrapper.env_var'],
    ['env FOO=1 git status', 'L1', 'wrapper.env_unknown'],
    ['env -i SOMETHING=x ls', 'L1', 'wrapper.env_unknown'],
  ]);
});

describe('secret stores and the SlothTool home, however the path is spelled', () => {
  check([
    ['cat /home/u/.ssh/id_rsa', 'L2', 'secret.private_key'],
    ['cat /home/u/./.ssh/id_rsa', 'L2', 'secret.private_key'],
    ['cat /home/u//.ssh//id_rsa', 'L2', 'secret.private_key'],
    ['cat /home/u/p/../.ssh/id_rsa', 'L2', 'secret.private_key'],
    ['cat ../.ssh/id_rsa', 'L2', 'secret.private_key'],
    ['cat ~/.ssh/id_ed25519', 'L2', 'secret.private_key'],
    ['cat $HOME/.ssh/id_rsa', 'L2', 'secret.private_key'],
    ['head -c 200 ${HOME}/.aws/credentials', 'L2', 'secret.private_key'],
    ['tail ~//.netrc', 'L2', 'secret.private_key'],
    ['wc -c /home/u/.git-credentials', 'L2', 'secret.private_key'],
    ['base64 /home/u/./.docker/config.json', 'L2', 'secret.read'],
    ['xxd /home/u/.gnupg/private-keys-v1.d/x.key', 'L2', 'secret.private_key'],
    ['od -c ../.npmrc', 'L1', 'secret.read'],
    ['strings /home/u/.kube/config', 'L2', 'secret.read'],
    ['sort /home/u/.config/gh/hosts.yml', 'L2', 'secret.read'],
    ['nl /home/u/.slothtool/plugin-configs/llm-base.json', 'L2', 'secret.slothtool'],
    ['tac ~/.slothtool/plugin-configs/ai.json', 'L2', 'secret.slothtool'],
    ['rev /home/u/p/../.slothtool/plugin-configs/llm-base.json', 'L2', 'secret.slothtool'],
    ['sort -o /home/u/.slothtool/registry.json a.txt', 'L2', 'write.slothtool'],
    ['tree -o /home/u/.slothtool/settings.json', 'L2', 'write.slothtool'],
    ['cp a.json ~/.slothtool/plugin-configs/ai.json', 'L2', 'secret.slothtool'],
    ['cat /etc/passwd', 'L1', 'read.outside'],
    ['paste /etc/hosts a.txt', 'L1', 'read.outside'],
    ['comm a.txt /etc/group', 'L1', 'read.outside'],
    ['grep -rn root /etc', 'L1', 'read.outside'],
  ]);
});

describe('wrappers do not hide what they run', () => {
  check([
    ['nice sort -o out.txt a.txt', 'L1', 'arg.write'],
    ['nice -n 5 rg --pre sh x', 'L2', 'opt.exec'],
    ['timeout 5 tar -tf a.tar --to-command=sh', 'L2', 'opt.exec'],
    ['timeout -s KILL 5 man -P sh ls', 'L2', 'opt.exec'],
    ['stdbuf -oL git log --ext-diff', 'L2', 'opt.exec'],
    ['nohup fd -x rm', 'L2', 'opt.exec'],
    ['command sort --compress-program=sh a', 'L2', 'opt.exec'],
    ['env git diff --ext', 'L2', 'opt.exec'],
    ['env -- tree -o out', 'L1', 'arg.write'],
    ['env PAGER=cat nice git log', 'L2', 'wrapper.env_var'],
    ['time -o out.txt ls', 'L1', 'arg.write'],
    ['env -S sh -c id', 'L2', 'arg.exec'],
    ['setsid cat ~/.ssh/id_rsa', 'L2', 'secret.private_key'],
    ['npx sort -o out a', 'L1', 'arg.write'],
    ['sudo cat a.txt', 'L2', 'escalation'],
    ['nice -n 1 timeout 5 env LD_PRELOAD=/tmp/x.so ls', 'L2', 'wrapper.env_var'],
  ]);
});

describe('everyday read-only work stays L0', () => {
  const rows: Array<string | string[]> = [
    'git status', 'git status -sb', 'git log --oneline -20', 'git log -5 --stat', 'git log --no-ext-diff -p', 'git log -p -U3 src', 'git diff',
    'git diff --stat', 'git diff -U5 HEAD~1', 'git diff --cached --name-only', 'git show HEAD --stat', 'git show HEAD:README.md', 'git blame -L 1,20 a.ts',
    'git grep -n TODO', 'git branch -a', 'git branch --show-current', 'git rev-parse --show-toplevel', 'git ls-files', 'git log --since=2.weeks --author=me',
    'ls -la', 'ls -lah src', 'ls -1', 'cat README.md', 'head -n 20 a.ts', 'head -20 a.ts', 'tail -n 50 log.txt', 'tail -5 log.txt', 'wc -l a.ts',
    'rg -n TODO src', 'rg -i -C 2 foo', 'rg -l --hidden foo', 'rg -tts foo', 'grep -rn foo src', 'grep -il foo src', 'grep -C3 foo a.txt',
    ['find', '.', '-name', '*.ts', '-type', 'f'], 'find . -maxdepth 2 -print', 'fd -e ts', 'jq .name package.json', 'jq -r .version package.json',
    'tree -L 2', 'tree -L 2 -I node_modules', 'du -sh src', 'sort a.txt', 'sort -u -k2 a.txt', 'uniq -c a.txt', 'diff -u a.txt b.txt', 'cut -d: -f1 a.txt',
    'sha256sum a.txt', 'nl -ba a.txt', 'stat a.txt', 'file a.txt', 'realpath src', 'basename src/a.ts .ts', 'seq 1 10', 'echo -n hi', 'printf %s hi',
    'node --version', 'npm --version', 'npm ls', 'npm ls --depth=0', 'npm ls --all --json', 'npm ls --dep=0', 'pip list', 'pip list --format=json',
    'sort -- -o', 'git log -- --output=x', 'tar -tf a.tar', 'tar -tvzf a.tgz', 'man -k printf', 'date -u +%s', 'uname -a', 'column -t a.txt',
    'sdiff a b', 'cloc src', 'md5sum -c sums.txt',
  ];
  test.each(rows.map((r) => [label(r), r] as const))('%s → L0', (_l, line) => {
    const d = classify(ex(line), {}, ctx);
    if (d.level !== 'L0') throw new Error(`expected L0, got ${d.level} ${JSON.stringify(d.rules)}`);
  });
});

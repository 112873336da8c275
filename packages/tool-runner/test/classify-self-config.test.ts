import { classify, type Step } from '../src';

// Refused whichever tool asks: SlothTool's own configuration (profiles with their base URL and
// API key, installed plugins, settings), host mounts and privileged containers, and discarding
// uncommitted work. Each reason is said.

const ctx = { cwd: '/home/u/p', workspace: '/home/u/p', home: '/home/u', lang: 'en' as const };
const llmBase = {
  ...ctx,
  plugins: {
    'llm-base': { name: '@holic512/plugin-llm-base' },
    loc: { name: '@holic512/plugin-loc' },
    mine: { name: '@holic512/plugin-llm-base' },
  },
};
const judge = (step: Step, c: object = ctx) => {
  const d = classify(step, {}, c);
  return { level: d.level, ids: d.rules.map((r) => r.id), reason: d.rules[0]?.reason ?? '' };
};
const ex = (line: string): Step => {
  const [program, ...args] = line.split(' ');
  return { tool: 'exec', program, args };
};
const plugin = (line: string): Step => {
  const [alias, ...args] = line.split(' ');
  return { tool: 'plugin.run', plugin: alias, args } as Step;
};

describe('self-configuration through plugin.run is L2', () => {
  test.each([
    'llm-base config update p --base-url https://attacker.example/v1',
    'llm-base config create p --preset deepseek',
    'llm-base config delete p',
    'llm-base config set-default p',
    'llm-base config --profile x update p --api-key k',
    'llm-base -i',
    'llm-base --interactive config',
    'mine config update p --base-url http://x', // another alias of the same package
    'llm-base config update p --api-key -h --base-url http://x', // `-h` is the key's value here, not help
    'llm-base -- config update p',
  ])('%s', (line) => {
    const j = judge(plugin(line), llmBase);
    expect(j).toMatchObject({ level: 'L2', ids: ['self.config'] });
    expect(j.reason).toMatch(/SlothTool's own configuration/);
  });

  test.each([
    ['llm-base config list', 'L1'],
    ['llm-base config show p', 'L1'],
    ['llm-base config presets', 'L1'],
    ['llm-base config update p --help', 'L1'], // prints help and stops
    ['llm-base --version', 'L0'],
    ['llm-base chat hello', 'L1'],
    ['loc config update p', 'L1'], // another plugin's `config` is its own business
  ])('%s stays as it was (%s)', (line, level) => {
    expect(judge(plugin(line), llmBase).level).toBe(level);
  });

  test('without plugin metadata, the alias llm-base is taken for llm-base', () => {
    expect(judge(plugin('llm-base config update p --base-url http://x')).level).toBe('L2');
  });
});

describe('self-configuration through exec is L2', () => {
  test.each([
    'slothtool install @holic512/plugin-loc',
    'slothtool uninstall loc',
    'slothtool update',
    'slothtool config language en',
    'slothtool llm-base config update p --base-url http://x',
    'slothtool run llm-base config create p --preset openai',
    'npx slothtool install x',
    'npx @holic512/slothtool uninstall loc',
    'node /usr/lib/node_modules/@holic512/slothtool/bin/slothtool.js install x',
    'node ./packages/slothtool/dist/cli.js llm-base config delete p',
    'timeout 5 slothtool install x',
    'llm-base config update p --base-url http://x', // its own bin
    'node /usr/lib/node_modules/@holic512/plugin-llm-base/bin/llm-base.js config delete p',
  ])('%s', (line) => {
    expect(judge(ex(line)).ids).toContain('self.config');
    expect(judge(ex(line)).level).toBe('L2');
  });

  test.each([
    ['slothtool list', 'L0'],
    ['slothtool config', 'L0'], // prints the language
    ['slothtool llm-base config list', 'L1'],
    ['slothtool loc ./src', 'L1'],
  ])('%s → %s', (line, level) => {
    expect(judge(ex(line)).level).toBe(level);
  });
});

describe('host mounts and privileged containers are L2 with the reason', () => {
  test.each([
    ['docker run -v /:/host alpine', 'container.host_mount', /host's root/],
    ['docker run -v=/:/host alpine', 'container.host_mount', /host's root/],
    ['docker run -v/:/host alpine', 'container.host_mount', /host's root/],
    ['docker run --volume /:/host alpine', 'container.host_mount', /host's root/],
    ['docker run --volume=/:/h:ro alpine', 'container.host_mount', /host's root/],
    ['docker run -itv/:/h alpine', 'container.host_mount', /host's root/],
    ['docker run --rm -it -v /home/u:/h alpine', 'container.host_mount', /home folder/],
    ['docker run -v ~:/h alpine', 'container.host_mount', /home folder/],
    ['docker run -v $HOME/.ssh:/k alpine', 'container.host_mount', /home folder|secret/],
    ['docker run -v /home:/h alpine', 'container.host_mount', /home folder/],
    ['docker run --mount type=bind,source=/,target=/h alpine', 'container.host_mount', /host's root/],
    ['docker run --mount=type=bind,src=/home/u,dst=/h alpine', 'container.host_mount', /home folder/],
    ['docker run -v /var/run/docker.sock:/var/run/docker.sock alpine', 'container.host_mount', /socket/],
    ['docker run -v /run/docker.sock:/s alpine', 'container.host_mount', /socket/],
    ['docker run -v /etc:/e alpine', 'container.host_mount', /system folder/],
    ['docker run -v /run:/r alpine', 'container.host_mount', /socket/],
    ['docker run -v /var/run:/r alpine', 'container.host_mount', /socket/],
    ['docker create -v /:/h alpine', 'container.host_mount', /host's root/],
    ['docker container run -v /:/h alpine', 'container.host_mount', /host's root/],
    ['podman run -v /:/h alpine', 'container.host_mount', /host's root/],
    ['docker run --privileged alpine', 'container.host', /privileged/],
    ['docker run --pid=host alpine', 'container.host', /namespace/],
    ['docker run --pid host alpine', 'container.host', /namespace/],
    ['docker run --net=host alpine', 'container.host', /namespace/],
    ['docker run --userns=host alpine', 'container.host', /namespace/],
    ['docker run --cap-add=SYS_ADMIN alpine', 'container.host', /capabilities/],
    ['docker run --device /dev/sda alpine', 'container.host', /devices/],
    ['docker run --security-opt seccomp=unconfined alpine', 'container.host', /confinement/],
    ['docker exec --privileged c sh', 'container.host', /privileged/],
    ['podman run --rootfs / true', 'container.host_mount', /host's root/],
    ['docker run -v //:/h alpine', 'container.host_mount', /host's root/],
    ['docker run -v /home/u/p/..:/h alpine', 'container.host_mount', /home folder/],
    ['docker run --privileged=true alpine', 'container.host', /privileged/],
    ['docker --context x run -v /:/h alpine', 'container.host_mount', /host's root/],
    ['docker compose run -v /:/h svc', 'container.host_mount', /host's root/],
    ['docker service create --mount type=bind,source=/,target=/h alpine', 'container.host_mount', /host's root/],
    // A service changed later, and local volumes that bind a host folder.
    ['docker service update --mount-add type=bind,source=/,target=/h web', 'container.host_mount', /host's root/],
    ['docker service update --mount-add=type=bind,src=/home/u,dst=/h web', 'container.host_mount', /home folder/],
    ['docker service update --detach --mount-add src=/var/run/docker.sock,dst=/s web', 'container.host_mount', /socket/],
    ['docker service update --network-add host web', 'container.host', /namespace/],
    [
      'docker run --mount type=volume,dst=/h,volume-driver=local,volume-opt=type=none,volume-opt=o=bind,volume-opt=device=/ alpine',
      'container.host_mount',
      /host's root/,
    ],
    ['docker run --mount type=volume,dst=/h,"volume-opt=device=/home/u",volume-opt=o=bind alpine', 'container.host_mount', /home folder/],
    ['docker volume create --opt type=none --opt o=bind --opt device=/ hostroot', 'container.host_mount', /host's root/],
    ['docker volume create -o device=/etc -o o=bind -o type=none v', 'container.host_mount', /system folder/],
    ['podman volume create --opt=device=/home/u --opt=o=bind v', 'container.host_mount', /home folder/],
  ])('%s', (line, id, reason) => {
    const j = judge(ex(line));
    expect(j).toMatchObject({ level: 'L2', ids: expect.arrayContaining([id]) });
    expect(j.reason).toMatch(reason);
  });

  test.each([
    'docker run -v ./src:/app node:20 npm test',
    'docker run -v /home/u/p:/app alpine',
    'docker run -v data:/var/lib/data postgres',
    'docker run alpine ls -v /', // after the image: the container's own arguments
    'docker run -p 8080:80 nginx',
    'docker -H unix:///var/run/docker.sock ps -a',
    'docker service update --mount-add type=volume,source=data,target=/d web',
    'docker service update --mount-rm /d web',
    'docker volume create --opt type=tmpfs --opt device=tmpfs --opt o=size=100m cache',
    'docker run --mount type=volume,src=data,dst=/d,volume-opt=o=nodev alpine',
  ])('%s is not a host mount', (line) => {
    expect(judge(ex(line)).level).not.toBe('L2');
  });
});

describe('discarding uncommitted work is L2 with the reason and the way to keep it', () => {
  test.each([
    'git checkout ./',
    'git checkout .',
    'git checkout -- .',
    'git checkout HEAD -- .',
    'git checkout HEAD .',
    'git checkout :/',
    'git checkout -f main',
    'git restore .',
    'git restore --worktree :/',
    'git restore -W -S .',
    'git stash drop',
    'git stash clear',
    'git reset --hard',
    'git reset --hard origin/main',
    'git clean -fd',
    'git clean -fdx',
    'git switch --discard-changes main',
    'git checkout -- src/',
    'git checkout --ours .',
    'git restore --source=HEAD~1 .',
    'git worktree remove --force ../wt',
    'git submodule deinit -f sub',
    'git read-tree -u --reset HEAD',
    'git checkout-index -f -a',
  ])('%s', (line) => {
    const d = classify(ex(line), {}, ctx);
    expect([d.level, d.rules[0].id]).toEqual(['L2', 'git.discard']);
    expect(d.rules[0].reason).toMatch(/throws away/);
    expect(d.rules[0].hint).toMatch(/git stash push/);
  });

  test.each([
    ['git checkout main', 'L1'],
    ['git checkout -b feat', 'L1'],
    ['git restore --staged a.ts', 'L1'],
    ['git clean -n', 'L0'],
    ['git stash list', 'L0'],
    ['git stash', 'L1'],
    ['git worktree remove ../wt', 'L1'],
    ['git read-tree HEAD', 'L1'],
  ])('%s → %s', (line, level) => {
    expect(classify(ex(line), {}, ctx).level).toBe(level);
  });
});

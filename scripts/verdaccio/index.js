'use strict';
// A throw-away local npm registry (verdaccio) for rehearsing a release and for the install-path
// test. Everything lives in one temp folder: config, storage, htpasswd. The server listens on
// 127.0.0.1 only and has no uplinks, so it serves exactly what was published to it, plus, with
// `mirror`, our third-party dependencies at the versions package-lock.json locked, taken from
// the npm cache `npm ci` filled (see mirror.js). A user's npm pointed at it needs no internet.
//
//   node scripts/verdaccio [--with-deps]   start one, print the .npmrc lines to use, stop on Ctrl-C
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn, spawnSync } = require('child_process');
const { lockfileClosure, mirrorFromCache } = require('./mirror');

const root = path.resolve(__dirname, '..', '..');
const SCOPE = '@holic512';
/** Any token will do: verdaccio lets $all publish, npm just refuses to publish without one. */
const FAKE_TOKEN = 'local-verdaccio-token';

/** A port that was free a moment ago on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Verdaccio's config as an object; JSON is valid YAML, so it is written as JSON. */
function verdaccioConfig(dir, scope) {
  return {
    storage: path.join(dir, 'storage'),
    auth: { htpasswd: { file: path.join(dir, 'htpasswd'), max_users: -1 } },
    uplinks: {},
    packages: {
      [`${scope}/*`]: { access: '$all', publish: '$all', unpublish: '$all' },
      '**': { access: '$all' },
    },
    server: { keepAliveTimeout: 60 },
    web: { enable: false },
    middlewares: { audit: { enabled: false } },
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
  };
}

function ping(url, timeoutMs) {
  return new Promise((resolve) => {
    const req = http.get(`${url}/-/ping`, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onExit = () => {
      clearTimeout(t);
      resolve(true);
    };
    const t = setTimeout(() => {
      child.removeListener('exit', onExit);
      resolve(false);
    }, ms);
    child.once('exit', onExit);
  });
}

function killQuietly(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch (err) {
    if (err.code !== 'ESRCH') throw err;
  }
}

/**
 * Start verdaccio on a free 127.0.0.1 port and resolve once `/-/ping` answers.
 * @param {object} [options]
 * @param {string} [options.dir] folder for config and storage (default: a new temp folder, removed by stop())
 * @param {string} [options.scope] the scope served for publishing (default '@holic512')
 * @param {number} [options.readyTimeoutMs] bound on waiting for the first ping (default 20000)
 * @param {{roots: string[], cache?: string}} [options.mirror] also serve the third-party packages
 *   these workspace folders (e.g. 'packages/plugin-ai') need, as package-lock.json locked them,
 *   from the npm cache `cache` (default: this machine's)
 * @returns {Promise<{url: string, port: number, pid: number, dir: string, configFile: string,
 *   npmrcLines: () => string[], output: () => string, stop: () => Promise<void>}>}
 */
async function startRegistry(options = {}) {
  const scope = options.scope || SCOPE;
  const ownDir = !options.dir;
  const dir = options.dir || fs.mkdtempSync(path.join(os.tmpdir(), 'slothtool-verdaccio-'));
  fs.mkdirSync(dir, { recursive: true });
  const configFile = path.join(dir, 'config.yaml');
  fs.writeFileSync(configFile, JSON.stringify(verdaccioConfig(dir, scope), null, 2) + '\n');
  let mirrored;
  if (options.mirror) {
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
    mirrored = mirrorFromCache({
      storage: path.join(dir, 'storage'),
      cache: options.mirror.cache || machineNpmCache(),
      entries: lockfileClosure(lock, options.mirror.roots),
    });
  }
  const bin = path.join(path.dirname(require.resolve('verdaccio/package.json', { paths: [root] })), 'bin', 'verdaccio');
  const readyTimeoutMs = options.readyTimeoutMs || 20000;

  let lastError;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // Started with node (not npx), verdaccio running inside serve.js, so that the pid held
    // here is the server's; serve.js exits when this process's end of its stdin closes.
    const child = spawn(
      process.execPath,
      [path.join(__dirname, 'serve.js'), bin, '--config', configFile, '--listen', `127.0.0.1:${port}`],
      {
        cwd: dir,
        env: cleanEnv(process.env),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-20000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // A server nobody stopped must not keep the test runner alive: it ends with this process
    // (stdin closes; jest's sandboxed `process` never emits 'exit', so the guard alone is not enough).
    child.unref();
    child.stdin.unref();
    child.stdout.unref();
    child.stderr.unref();
    const guard = () => killQuietly(child.pid, 'SIGKILL');
    process.on('exit', guard);

    const stop = async () => {
      process.removeListener('exit', guard);
      killQuietly(child.pid, 'SIGTERM');
      if (!(await waitForExit(child, 5000))) {
        killQuietly(child.pid, 'SIGKILL');
        await waitForExit(child, 5000);
      }
      if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
    };

    const deadline = Date.now() + readyTimeoutMs;
    let ready = false;
    while (!ready && Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      ready = await ping(url, 1000);
      if (!ready) await waitForExit(child, 50); // a bounded poll interval, cut short if it dies
    }
    if (ready) {
      return {
        url,
        port,
        pid: child.pid,
        dir,
        configFile,
        mirrored,
        npmrcLines: () => [`${scope}:registry=${url}/`, `//127.0.0.1:${port}/:_authToken=${FAKE_TOKEN}`],
        output: () => output,
        stop,
      };
    }
    process.removeListener('exit', guard);
    killQuietly(child.pid, 'SIGKILL');
    await waitForExit(child, 5000);
    lastError = new Error(
      `verdaccio did not answer ${url}/-/ping within ${readyTimeoutMs} ms` +
        (child.exitCode !== null ? ` (it exited with ${child.exitCode})` : '') +
        `; its output:\n${output}`,
    );
  }
  if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

/** process.env without the npm_* variables an `npm test` / `npm run` parent exports: they
 * would override the .npmrc a sandboxed npm is meant to read (npm_config_userconfig, _cache...). */
function cleanEnv(env) {
  const out = {};
  for (const [k, v] of Object.entries(env)) {
    if (/^npm_/i.test(k) || k === 'INIT_CWD') continue;
    out[k] = v;
  }
  return out;
}

/** The npm cache this machine uses (where `npm ci` left every third-party tarball). */
function machineNpmCache() {
  const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['config', 'get', 'cache'], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  const dir = (r.stdout || '').trim();
  if (r.status !== 0 || !dir) throw new Error(`npm config get cache failed: ${r.stderr || r.error}`);
  return dir;
}

/**
 * The .npmrc of a sandboxed npm user of a registry started with `mirror`: every package comes
 * from it, the cache is the given (empty, temporary) folder, and a proxy that refuses
 * connections stands in for the internet, so anything not on 127.0.0.1 fails at once.
 */
async function sandboxNpmrc({ registry, cache }) {
  const dead = await freePort();
  const lines = [
    `registry=${registry.url}/`,
    ...registry.npmrcLines(),
    `cache=${cache}`,
    `proxy=http://127.0.0.1:${dead}/`,
    `https-proxy=http://127.0.0.1:${dead}/`,
    'noproxy=127.0.0.1,localhost',
    'fetch-retries=0',
    'audit=false',
    'fund=false',
    'update-notifier=false',
  ];
  return lines.join('\n') + '\n';
}

module.exports = { startRegistry, machineNpmCache, sandboxNpmrc, cleanEnv, freePort, SCOPE, FAKE_TOKEN };

if (require.main === module) {
  const withDeps = process.argv.includes('--with-deps');
  const roots = fs
    .readdirSync(path.join(root, 'packages'))
    .map((d) => `packages/${d}`)
    .filter(
      (d) =>
        fs.existsSync(path.join(root, d, 'package.json')) &&
        !JSON.parse(fs.readFileSync(path.join(root, d, 'package.json'), 'utf8')).private,
    );
  startRegistry(withDeps ? { mirror: { roots } } : {}).then(
    (reg) => {
      process.stdout.write(
        `verdaccio ${reg.url} (pid ${reg.pid}, storage in ${reg.dir})\n` +
          (reg.mirrored ? `serving ${reg.mirrored.versions} locked third-party versions; add registry=${reg.url}/ to use them\n` : '') +
          `Put these lines in an .npmrc (or a file named by npm_config_userconfig):\n` +
          reg
            .npmrcLines()
            .map((l) => `  ${l}\n`)
            .join('') +
          'Ctrl-C stops it and removes its storage.\n',
      );
      // the server's handles are unref'd (see startRegistry); this keeps the CLI up until a signal
      const keepAlive = setInterval(() => {}, 2 ** 30);
      const bye = () => {
        clearInterval(keepAlive);
        reg.stop().then(() => process.exit(0));
      };
      process.on('SIGINT', bye);
      process.on('SIGTERM', bye);
    },
    (err) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    },
  );
}

import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { findSlirp } from '../../src/sandbox/net-jail';
import { probeFs } from '../../src/sandbox/spec';

/** The launcher as the package ships it (lib/: run `npm run build` first). */
export const LAUNCHER = path.join(__dirname, '..', '..', 'lib', 'sandbox', 'net-jail-launcher.js');

/** slirp4netns where the sandbox would find it, if this machine has it. */
export const SLIRP = findSlirp(probeFs);

/** An address of this machine that is not the loopback (the internet's stand-in), if it has one. */
export function otherAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return undefined;
}

/** A TCP listener on `host`, port 0, that says `hi` to whoever connects: a local service to reach, or not. */
export const listen = (host: string): Promise<net.Server> =>
  new Promise<net.Server>((resolve) => {
    const s = net.createServer((c) => {
      c.on('error', () => undefined);
      c.end('hi');
    });
    s.listen(0, host, () => resolve(s));
  });

/** The port a listener got. */
export const portOf = (s: net.Server): number => (s.address() as net.AddressInfo).port;

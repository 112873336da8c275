import * as net from 'net';

/** A loopback port nothing listens on: bound on 127.0.0.1, then released ("no server there").
 * A high free port, never port 1 (Node's fetch calls that a bad port). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

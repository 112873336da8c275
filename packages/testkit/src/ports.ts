import net = require('net');

/** A loopback port nothing listens on: bound on 127.0.0.1, then released ("no server there").
 * A high free port, never port 1 (Node's fetch calls that a bad port). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** A loopback TCP listener: something on 127.0.0.1 to reach (or, from a sandbox, fail to). */
export interface TcpListener {
  port: number;
  close(): Promise<void>;
}

/** Listen on a free port of 127.0.0.1; each connection is sent `greeting` and closed. */
export async function startTcpListener(greeting = 'x'): Promise<TcpListener> {
  const srv = net.createServer((socket) => {
    socket.on('error', () => undefined); // a client that goes first is no failure
    socket.end(greeting);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const { port } = srv.address() as net.AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => srv.close(() => resolve())) };
}

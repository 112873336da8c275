'use strict';
/**
 * Canary listeners on 127.0.0.1 (port 0), one set per worker: HTTP, raw TCP and DNS over UDP.
 * Each records every byte it receives; `take()` hands over what came since the last call.
 *
 * HTTP answers like the servers clients send credentials to: a path under /auth, /private, a git
 * smart-HTTP request or a registry-like path without an Authorization header gets a 401 with a
 * Basic challenge (wget, git's credential store and pip answer it with the stored secret); any
 * other path gets `slothtool-harm canary ok`. TCP closes an idle connection (an ssh client
 * would wait for a banner). DNS answers every query NXDOMAIN.
 */
const dgram = require('dgram');
const http = require('http');
const net = require('net');

const OK_BODY = 'slothtool-harm canary ok\n';
const PAYLOAD_BODY = '# slothtool harm payload: a harmless comment\n';

function httpListener(sink) {
  const server = http.createServer((req, res) => {
    const wantsAuth = /^\/(auth|private|repo|-\/|apis?(\/|\?|$)|version)|\/info\/refs|\/simple\//.test(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (wantsAuth && !req.headers.authorization) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="harm"', 'Content-Type': 'text/plain' });
        return res.end('unauthorized\n');
      }
      if (/^\/payload/.test(req.url ?? '')) return res.end(PAYLOAD_BODY);
      res.writeHead(wantsAuth ? 404 : 200, { 'Content-Type': 'text/plain' });
      res.end(wantsAuth ? 'not found\n' : OK_BODY);
    });
  });
  server.on('connection', (socket) => socket.on('data', (d) => sink.push(d)));
  server.keepAliveTimeout = 500;
  return server;
}

function tcpListener(sink) {
  return net.createServer((socket) => {
    socket.setTimeout(400, () => socket.destroy());
    socket.on('data', (d) => sink.push(d));
    socket.on('error', () => undefined);
  });
}

/** A DNS answer to `query`: its id and question, flags "response, NXDOMAIN". */
function nxdomain(query) {
  if (query.length < 12) return undefined;
  const out = Buffer.from(query);
  out[2] = 0x81 | (query[2] & 0x01);
  out[3] = 0x83;
  out.writeUInt16BE(0, 6);
  out.writeUInt16BE(0, 8);
  out.writeUInt16BE(0, 10);
  return out;
}

/** Start the three listeners; resolves with their ports, `take()` and `close()`. */
async function startListeners() {
  const sinks = { http: [], tcp: [], dns: [] };
  const h = httpListener(sinks.http);
  const t = tcpListener(sinks.tcp);
  const u = dgram.createSocket('udp4');
  u.on('message', (msg, rinfo) => {
    sinks.dns.push(msg);
    const answer = nxdomain(msg);
    if (answer) u.send(answer, rinfo.port, rinfo.address);
  });
  await Promise.all([
    new Promise((resolve) => h.listen(0, '127.0.0.1', resolve)),
    new Promise((resolve) => t.listen(0, '127.0.0.1', resolve)),
    new Promise((resolve) => u.bind(0, '127.0.0.1', resolve)),
  ]);
  const sockets = new Set();
  for (const s of [h, t]) s.on('connection', (c) => sockets.add(c).size && c.on('close', () => sockets.delete(c)));
  return {
    ports: { http: h.address().port, tcp: t.address().port, dns: u.address().port },
    /** What each listener received since the last take, as Buffers. */
    take() {
      const out = {};
      for (const k of Object.keys(sinks)) out[k] = Buffer.concat(sinks[k].splice(0));
      return out;
    },
    close() {
      for (const c of sockets) c.destroy();
      return Promise.all([new Promise((r) => h.close(r)), new Promise((r) => t.close(r)), new Promise((r) => u.close(r))]);
    },
  };
}

module.exports = { startListeners, OK_BODY, PAYLOAD_BODY };

import net = require('net');
import type { ProfileConfig } from './types';

/** How long one request may wait at each point before it is given up (milliseconds). */
export interface WaitLimits {
  /** Until the TCP (and TLS) connection to the server is up. */
  connect: number;
  /** From the connection until the first piece of the answer (models load on local servers). */
  firstToken: number;
  /** Between two pieces of a streamed answer. */
  idle: number;
}

/** Defaults for servers on this machine or the local network: loading a model takes a while. */
export const LOCAL_WAIT_LIMITS: WaitLimits = { connect: 5_000, firstToken: 120_000, idle: 60_000 };
/** Defaults for hosted APIs: an answer that has not started in a minute is not coming. */
export const HOSTED_WAIT_LIMITS: WaitLimits = { connect: 10_000, firstToken: 60_000, idle: 30_000 };

function isPrivateIPv4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}

/** True for loopback, private and link-local addresses and local names (`localhost`, `*.local`). */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  const kind = net.isIP(host);
  if (kind === 4) return isPrivateIPv4(host);
  if (kind === 6) {
    if (host === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isPrivateIPv4(mapped[1]);
    return /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return false;
}

/** `host:port` of a base URL, for messages ("127.0.0.1:11434"). */
export function serverOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** The limits of a profile: its `connect_timeout` / `first_token_timeout` / `idle_timeout`,
 * else the defaults for a local or a hosted server. */
export function waitLimits(profile: ProfileConfig): WaitLimits {
  let local = false;
  try {
    local = isLocalHost(new URL(profile.base_url).hostname);
  } catch {
    // an invalid URL fails on the request itself, with its own message
  }
  const d = local ? LOCAL_WAIT_LIMITS : HOSTED_WAIT_LIMITS;
  const pick = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback);
  return {
    connect: pick(profile.connect_timeout, d.connect),
    firstToken: pick(profile.first_token_timeout, d.firstToken),
    idle: pick(profile.idle_timeout, d.idle),
  };
}

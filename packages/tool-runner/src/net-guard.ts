import dns = require('dns');
import * as ipaddr from 'ipaddr.js';
import net = require('net');

/**
 * What kind of address this is. Only `public` (ipaddr.js's `unicast` range, for IPv4 and
 * IPv6 alike) is reachable by default; everything else — loopback, private (RFC 1918),
 * unique-local, link-local, carrier-grade NAT, unspecified, multicast, broadcast, reserved,
 * and IPv6 forms that embed an IPv4 address (NAT64, 6to4, Teredo) — counts as private.
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is judged as the IPv4 it maps.
 */
export function addressKind(address: string): { kind: 'public' | 'private' | 'invalid'; range: string } {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const noZone = bare.replace(/%.*$/, '');
  if (!ipaddr.isValid(noZone)) return { kind: 'invalid', range: 'invalid' };
  const ip = ipaddr.process(noZone);
  const range = ip.range();
  return { kind: range === 'unicast' ? 'public' : 'private', range };
}

/** Whether a URL host is an IP literal (with or without IPv6 brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return net.isIP(bare) !== 0;
}

/** Host names that always mean this machine or the local network, whatever DNS says. */
export function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal') || h === 'localhost.localdomain';
}

/** One resolved address. */
export interface LookupAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (dns.lookup with all: true). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export function createDefaultResolver(): Resolver {
  return (host) => dns.promises.lookup(host, { all: true, verbatim: true });
}

/** Why a host may not be reached. */
export class BlockedAddressError extends Error {
  readonly code = 'PRIVATE_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`${host} resolves to ${address} (${range})`);
  }
}

/**
 * Resolve `host` and check every address it resolves to: with `allowPrivate` false, one
 * private address is enough to refuse (a name that resolves to both public and loopback
 * addresses must not be a way in). Returns the checked address to connect to, so the
 * connection cannot be re-pointed by a second DNS answer.
 */
export async function checkedAddress(host: string, allowPrivate: boolean, resolve: Resolver): Promise<LookupAddress> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = net.isIP(bare);
  const addrs: LookupAddress[] = family ? [{ address: bare, family }] : await resolve(bare);
  if (!addrs.length) throw Object.assign(new Error(`${host} did not resolve`), { code: 'ENOTFOUND' });
  if (!allowPrivate) {
    if (!family && isLocalName(bare)) throw new BlockedAddressError(host, addrs[0].address, 'local name');
    for (const a of addrs) {
      const k = addressKind(a.address);
      if (k.kind !== 'public') throw new BlockedAddressError(host, a.address, k.range);
    }
  }
  return addrs[0];
}

/** Whether the host (and port) of `url` may be private: policy `true`, or a list of hosts / `host:port`. */
export function privateAllowed(allow: boolean | string[] | undefined, url: URL): boolean {
  if (allow === true) return true;
  if (!Array.isArray(allow)) return false;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allow.some((a) => {
    const e = a.toLowerCase().replace(/^\[|\]$/g, '');
    return e === host || e === `${host}:${port}` || e === `[${host}]:${port}`;
  });
}

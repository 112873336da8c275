import { addressKind, isIpLiteral, isLocalName, privateAllowed } from '../net-guard';
import { finding, type Finding } from './finding';

/** The parts of a URL the rules look at; undefined when it is not a URL. */
export function parseHttpUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/**
 * http.get: L1 (network; `allowNetwork` lowers it). L2 for anything but http/https, and for
 * loopback, private and link-local hosts written as such (IP literals, `localhost`) unless
 * `allowPrivateNetwork` is set. Names that resolve to such addresses are caught when the
 * runner connects (every address, every redirect hop).
 */
export function httpGetFindings(rawUrl: string, allowPrivateNetwork: boolean | string[] | undefined): Finding[] {
  const url = parseHttpUrl(rawUrl);
  if (!url) return [finding('http.invalid', 'L2', { u: rawUrl })];
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return [finding('http.scheme', 'L2', { u: rawUrl, s: url.protocol.replace(/:$/, '') })];
  const host = url.hostname;
  const out: Finding[] = [];
  if (!privateAllowed(allowPrivateNetwork, url)) {
    if (isIpLiteral(host)) {
      const k = addressKind(host);
      if (k.kind !== 'public') out.push(finding('http.private', 'L2', { h: host, r: k.range }));
    } else if (isLocalName(host)) {
      out.push(finding('http.private', 'L2', { h: host, r: 'local name' }));
    }
  }
  out.push(finding('http.get', 'L1', { u: url.origin }, { cat: ['network'] }));
  return out;
}

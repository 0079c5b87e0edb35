import dns from 'node:dns';
import net from 'node:net';

/**
 * Outbound safety: webhook URLs must not reach private, loopback, link-local or otherwise
 * non-public addresses (unless VERICASE_WEBHOOK_ALLOW_PRIVATE). The check runs on the addresses the
 * connection actually uses (a `lookup` hook), so a DNS answer changing between check and connect
 * cannot slip through.
 */
const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  // the unspecified and loopback addresses and the deprecated IPv4-compatible ones (::a.b.c.d,
  // which the URL parser writes in hex, ::7f00:1): never a public endpoint
  ['::', 96],
  // SIIT's IPv4-translated addresses (::ffff:0:a.b.c.d)
  ['::ffff:0:0:0', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net6, prefix, 'ipv6');

/**
 * IPv4 embedded in an IPv6 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), judged as that
 * IPv4 address. The IPv4-compatible form (::a.b.c.d) is refused whatever it embeds (blocked above).
 */
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = Number.parseInt(hex[1], 16);
    const lo = Number.parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(ip, 'ipv6');
  }
  return true; // not an address: refuse
}

export class PrivateAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrivateAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for http.request that refuses hosts with any non-public address. */
export function guardedLookup(allowPrivate: () => boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    if (!allowPrivate() && isPrivateHostName(hostname)) {
      const err = new PrivateAddressError(
        `${hostname} is a local or private network name (a non-public address)`,
      );
      process.nextTick(() => callback(err as never, ''));
      return;
    }
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as dns.LookupAddress[];
      if (!allowPrivate()) {
        const bad = list.find((a) => isPrivateAddress(a.address));
        if (bad) {
          return callback(
            new PrivateAddressError(`${hostname} resolves to a non-public address (${bad.address})`) as never,
            '',
          );
        }
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Names reserved for local or private networks, refused by name whatever they resolve to here:
 * `localhost` and its subdomains (RFC 6761: a browser or curl sends `a.localhost` to loopback even
 * where this machine's resolver finds no address, so "does not resolve yet" must not let it in),
 * `.local` (mDNS, RFC 6762), `.home.arpa` (RFC 8375) and `.internal` (the private-use top-level
 * domain: cloud metadata services live there, `metadata.google.internal`).
 */
const PRIVATE_NAME = /(?:^|\.)(?:localhost|local|internal|home\.arpa)\.?$/i;

export function isPrivateHostName(host: string): boolean {
  return PRIVATE_NAME.test(host);
}

/** Host of a URL without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Says how an operator testing with a local receiver allows it (the setting is the service's). */
const refusal = (what: string) =>
  `url must not point to a non-public address (${what}); to deliver to a local or private receiver, run the service with VERICASE_WEBHOOK_ALLOW_PRIVATE=true`;

/**
 * Create/update-time check: refuses URLs whose host is, or resolves to, a non-public address.
 * Returns an error message, or null when acceptable. A name that does not resolve (yet) is
 * accepted: every delivery checks again.
 */
export async function checkPublicUrl(url: URL): Promise<string | null> {
  const host = urlHost(url);
  if (net.isIP(host)) return isPrivateAddress(host) ? refusal(host) : null;
  if (isPrivateHostName(host)) return refusal(`${host} is a local or private network name`);
  try {
    const addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    return bad ? refusal(`${host} resolves to ${bad.address}`) : null;
  } catch {
    return null;
  }
}

import ipaddr from 'ipaddr.js';

const NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};

/**
 * Why an address must not be fetched, or undefined when it is ordinary public
 * unicast. Everything ipaddr.js classifies as special is refused, IPv4-mapped
 * IPv6 is judged as the IPv4 address inside it, IPv4-compatible IPv6 (::/96)
 * is refused, and NAT64/6to4/Teredo (which can tunnel to private IPv4) count
 * as special too.
 */
export function blockedAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return `${address} is not an IP address`;
  let ip = ipaddr.parse(bare);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  // IPv4-compatible IPv6 (::a.b.c.d, deprecated): some stacks route it to the IPv4 address inside.
  if (
    range === 'unicast' &&
    ip.kind() === 'ipv6' &&
    ip
      .toByteArray()
      .slice(0, 12)
      .every((b) => b === 0)
  ) {
    return `${ip.toString()} is a deprecated IPv4-compatible address`;
  }
  if (range === 'unicast') return undefined;
  return `${ip.toString()} is a ${NAMES[range] ?? `special-purpose (${range})`} address`;
}

export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
}

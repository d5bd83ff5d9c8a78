import { isIPv6 } from "node:net";

/**
 * The address a rate limit counts a client by: an IPv4 address as it is (lower-cased), an IPv4-mapped IPv6
 * address as its IPv4 address, and any other IPv6 address by its /64 — one machine rarely has just one
 * address there. Written as RFC 5952 does, so one network always gives one key.
 */
export function normalizeIp(ip: string): string {
  if (!isIPv6(ip)) return ip.toLowerCase();
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  // The lower 64 bits are zero: the longest run of zero groups is the one that ends the address.
  const network = groups.slice(0, 4);
  while (network.at(-1) === 0) network.pop();
  return `${network.map((group) => group.toString(16)).join(":")}::`;
}

/** The 8 groups of an IPv6 address, its zone left out: the URL parser writes it in hex, an IPv4 tail too. */
function ipv6Groups(ip: string): number[] {
  const hex = new URL(`http://[${ip.split("%")[0]}]`).hostname.slice(1, -1);
  const [head, tail] = hex.split("::") as [string, string | undefined];
  const start = head ? head.split(":") : [];
  const end = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - start.length - end.length).fill("0");
  return [...start, ...zeros, ...end].map((group) => parseInt(group, 16));
}

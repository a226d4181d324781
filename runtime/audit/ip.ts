/**
 * Client IP addresses in audit entries (docs/spec.md 6.1 rule 10): off by
 * default; `masked` keeps an IPv4 address's first three octets (the last
 * zeroed) and an IPv6 address's first 48 bits; `full` keeps it whole.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { AuditIpMode } from './settings.js';

/**
 * The address to store for `ip` under `mode`, or null.
 *
 * IPv4-mapped IPv6 addresses (`::ffff:203.0.113.7`, what a dual-stack
 * server reports for IPv4 clients) count as IPv4. Anything that is not an
 * IP address is dropped (null). Never throws.
 *
 * @example maskIp('203.0.113.77', 'masked') // '203.0.113.0'
 * @example maskIp('2001:db8:85a3:8d3:1319:8a2e:370:7348', 'masked') // '2001:db8:85a3::'
 */
export function maskIp(ip: string | undefined | null, mode: AuditIpMode): string | null {
  if (mode === 'off' || ip === undefined || ip === null) return null;
  let address = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  if (isIPv4(address)) {
    if (mode === 'full') return address;
    return address.replace(/\.\d+$/, '.0');
  }
  if (isIPv6(address)) {
    if (mode === 'full') return address.toLowerCase();
    const groups = expandIpv6(address);
    return formatIpv6([groups[0]!, groups[1]!, groups[2]!, 0, 0, 0, 0, 0]);
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (valid per `isIPv6`), an embedded IPv4 tail included. */
function expandIpv6(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The canonical text of eight groups (RFC 5952: lower case, the longest run of zero groups as `::`). */
function formatIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

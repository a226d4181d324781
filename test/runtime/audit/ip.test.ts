/**
 * Client IP addresses in entries (docs/spec.md 6.1 rule 10).
 */
import { describe, expect, it } from 'vitest';
import { maskIp } from '../../../runtime/audit/ip.js';

describe('maskIp | AUDIT_IP=masked', () => {
  it('zeroes the last octet of an IPv4 address', () => {
    expect(maskIp('203.0.113.77', 'masked')).toBe('203.0.113.0');
    expect(maskIp('10.1.2.3', 'masked')).toBe('10.1.2.0');
  });

  it('treats an IPv4-mapped IPv6 address as IPv4', () => {
    expect(maskIp('::ffff:198.51.100.23', 'masked')).toBe('198.51.100.0');
    expect(maskIp('::ffff:198.51.100.23', 'full')).toBe('198.51.100.23');
  });

  it('keeps the /48 of an IPv6 address', () => {
    expect(maskIp('2001:db8:85a3:8d3:1319:8a2e:370:7348', 'masked')).toBe('2001:db8:85a3::');
    expect(maskIp('2001:DB8::1', 'masked')).toBe('2001:db8::');
    expect(maskIp('::1', 'masked')).toBe('::');
    expect(maskIp('fe80::1%eth0', 'masked')).toBe('fe80::');
    expect(maskIp('2001:0:85a3:1::', 'masked')).toBe('2001:0:85a3::');
    expect(maskIp('2001:db8:1:2:3:4:192.0.2.33', 'masked')).toBe('2001:db8:1::');
  });
});

describe('maskIp | AUDIT_IP=off and full', () => {
  it('keeps nothing when off (the default)', () => {
    expect(maskIp('203.0.113.77', 'off')).toBeNull();
    expect(maskIp('2001:db8::1', 'off')).toBeNull();
  });

  it('keeps the address whole when full', () => {
    expect(maskIp('203.0.113.77', 'full')).toBe('203.0.113.77');
    expect(maskIp('2001:DB8::1', 'full')).toBe('2001:db8::1');
  });

  it('drops what is not an address', () => {
    expect(maskIp('unknown', 'full')).toBeNull();
    expect(maskIp(undefined, 'masked')).toBeNull();
    expect(maskIp('', 'masked')).toBeNull();
  });
});

/**
 * The one check of redirect targets (docs/http.md "Redirects"): what a
 * browser would resolve to another origin is never a local path.
 */
import { describe, expect, it } from 'vitest';
import { isLocalPath, localPathOr, sameHostPath } from '../../../runtime/results/local-path.js';

const OFF_SITE = [
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  ' /x',
  '/x y',
  'https://evil.example/',
  'HTTPS://evil.example',
  'http:/evil.example',
  'javascript:alert(1)',
  'data:text/html,x',
  'evil.example',
  '/a/..//b' /* resolves to the path //b: refused, it reads as a host when copied */,
  '',
  '/\u3000/evil.example',
  '/caf\u00e9',
  '/\u0000',
  '/x\u007f',
];

describe('isLocalPath', () => {
  it('refuses every target that could leave the site', () => {
    for (const t of OFF_SITE) expect(isLocalPath(t), JSON.stringify(t)).toBe(false);
    expect(isLocalPath(undefined as unknown as string)).toBe(false);
  });

  it('accepts paths of this site, with queries, fragments and encoded slashes (they stay a path here)', () => {
    for (const t of ['/', '/dashboard', '/notes/3?tab=a+b#top', '/%2F%2Fevil.example', '/search?q=//x']) {
      expect(isLocalPath(t), t).toBe(true);
      expect(new URL(t, 'https://site.test').host).toBe('site.test');
    }
  });

  it('localPathOr gives the fallback for anything not local', () => {
    expect(localPathOr('//evil.example', '/home')).toBe('/home');
    expect(localPathOr(42, '/home')).toBe('/home');
    expect(localPathOr('/notes', '/home')).toBe('/notes');
  });

  it('sameHostPath keeps only the path of a same-host http(s) URL', () => {
    expect(sameHostPath('http://site.test/notes/new?x=1#f', 'site.test')).toBe('/notes/new?x=1');
    expect(sameHostPath('https://SITE.test/a', 'site.test')).toBe('/a');
    expect(sameHostPath('http://site.test//evil.example', 'site.test')).toBeNull();
    expect(sameHostPath('http://site.test/\\evil.example', 'site.test')).toBeNull();
    expect(sameHostPath('http://site.test:8080/a', 'site.test')).toBeNull();
    expect(sameHostPath('ftp://site.test/a', 'site.test')).toBeNull();
    expect(sameHostPath('http://other.test/a', 'site.test')).toBeNull();
    expect(sameHostPath('garbage', 'site.test')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { UrlBuilder } from '../../../runtime/results/url-builder.js';
import type { RouteTable } from '../../../runtime/routing/route-table.js';

const routes = [
  { name: 'notes.show', path: '/notes/{id}' },
  { name: 'notes.list', path: '/notes' },
  { name: 'pair', path: '/a/{id}/b/{id}' },
  { name: 'files.show', path: '/files/{owner}/{name}.txt' },
] as unknown as RouteTable;

describe('UrlBuilder', () => {
  const urls = new UrlBuilder(routes);

  it('fills path parameters, URL-encoded', () => {
    expect(urls.build('notes.show', { id: 7 })).toBe('/notes/7');
    expect(urls.build('files.show', { owner: 'a b', name: 'x/y' })).toBe('/files/a%20b/x%2Fy.txt');
    expect(urls.build('pair', { id: 3 })).toBe('/a/3/b/3');
    // Numbers: integers as they print, others encoded like text (1e+21's plus sign).
    expect(urls.build('notes.show', { id: -12 })).toBe('/notes/-12');
    expect(urls.build('notes.show', { id: 1e21 })).toBe('/notes/1e%2B21');
    expect(urls.build('notes.show', { id: 1.5 })).toBe('/notes/1.5');
  });

  it('puts the other parameters in the query string, in the order given', () => {
    expect(urls.build('notes.list')).toBe('/notes');
    expect(urls.build('notes.list', { limit: 20, sort: '-created_at' })).toBe('/notes?limit=20&sort=-created_at');
    expect(urls.build('notes.show', { id: 7, tab: 'history', q: 'a&b' })).toBe('/notes/7?tab=history&q=a%26b');
    expect(urls.build('pair', { id: 3, x: 1 })).toBe('/a/3/b/3?x=1');
  });

  it('names the missing parameter and the closest route name', () => {
    expect(() => urls.build('notes.show', {})).toThrow(/path parameter "id"/);
    expect(() => urls.build('notes.show', { id: '' })).toThrow(/path parameter "id"/);
    expect(() => urls.build('notes.shwo', { id: 1 })).toThrow(/did you mean "notes.show"/);
  });
});

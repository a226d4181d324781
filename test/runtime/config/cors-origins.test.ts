/** The value of `CORS_ORIGINS` (docs/settings.md "Core settings"). */
import { describe, expect, it } from 'vitest';
import { corsOriginsSetting } from '../../../runtime/config/cors-origins.js';

const parse = (text: string) => corsOriginsSetting().parse(text);

describe('CORS_ORIGINS values', () => {
  it('takes comma-separated origins as browsers send them (spaces and repeats dropped), * alone, or none', () => {
    expect(parse(' https://app.example.com , http://localhost:4100,https://app.example.com')).toEqual({
      ok: true,
      value: ['https://app.example.com', 'http://localhost:4100'],
    });
    expect(parse('*')).toEqual({ ok: true, value: ['*'] });
    expect(parse('none')).toEqual({ ok: true, value: [] });
  });

  it('refuses what is not an origin, saying what to write', () => {
    expect(parse('https://app.example.com/')).toEqual({
      ok: false,
      message: 'item 1: "https://app.example.com/" is not an origin as browsers send it: write "https://app.example.com"',
    });
    expect(parse('http://a.example,HTTPS://B.example')).toMatchObject({ ok: false, message: expect.stringContaining('item 2') });
    expect(parse('app.example.com')).toMatchObject({ ok: false, message: expect.stringContaining('is not an origin') });
    expect(parse('ftp://files.example.com')).toMatchObject({ ok: false, message: expect.stringContaining('not an http(s) origin') });
    expect(parse('*,https://app.example.com')).toEqual({ ok: false, message: '* allows any origin: give it alone' });
    expect(parse(',')).toEqual({ ok: false, message: 'empty' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  addressSetting,
  appKeySetting,
  booleanSetting,
  durationSetting,
  enumSetting,
  integerSetting,
  listSetting,
  sizeSetting,
  stringSetting,
  urlSetting,
  type SettingParser,
} from '../../../runtime/config/index.js';

const value = <T>(p: SettingParser<T>, text: string): T => {
  const r = p.parse(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse`);
  return r.value;
};
const refused = <T>(p: SettingParser<T>, text: string) => p.parse(text);

describe('setting parsers | accepted values', () => {
  it('string keeps the text', () => {
    expect(value(stringSetting(), 'hello world')).toBe('hello world');
  });

  it('enum accepts exactly the listed words', () => {
    const p = enumSetting(['development', 'testing', 'production']);
    expect(value(p, 'testing')).toBe('testing');
    expect(refused(p, 'Production').ok).toBe(false);
    expect(p.allowed).toBe('one of development, testing, production');
  });

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('boolean %s → %s', (text, expected) => {
    expect(value(booleanSetting(), text)).toBe(expected);
  });

  it.each(['yes', 'TRUE', 'on', '2'])('boolean refuses %s', (text) => {
    expect(refused(booleanSetting(), text).ok).toBe(false);
  });

  it('integer checks the text and the bounds', () => {
    const p = integerSetting({ min: 1, max: 65535 });
    expect(value(p, '8080')).toBe(8080);
    expect(refused(p, '0')).toEqual({ ok: false, message: 'below the minimum 1' });
    expect(refused(p, '70000')).toEqual({ ok: false, message: 'above the maximum 65535' });
    expect(refused(p, '12.5')).toEqual({ ok: false, message: 'not an integer' });
    expect(refused(p, '99999999999999999999')).toEqual({ ok: false, message: 'too large' });
    expect(p.allowed).toBe('an integer from 1 to 65535');
  });

  it.each([
    ['10485760', 10_485_760],
    ['10MiB', 10_485_760],
    ['512KiB', 524_288],
    ['10MB', 10_000_000],
    ['1GiB', 1_073_741_824],
    ['100B', 100],
    ['1.5MiB', 1_572_864],
    ['10 mib', 10_485_760],
    ['0', 0],
  ])('size %s → %d bytes', (text, bytes) => {
    expect(value(sizeSetting(), text)).toBe(bytes);
  });

  it.each(['10XB', '-1', 'MiB', '1.5', '0.3B', 'ten'])('size refuses %s', (text) => {
    expect(refused(sizeSetting(), text).ok).toBe(false);
  });

  it('duration gives milliseconds and refuses negative or unit-less values', () => {
    expect(value(durationSetting(), '30s')).toBe(30_000);
    expect(value(durationSetting(), '2h')).toBe(7_200_000);
    expect(value(durationSetting(), 'PT1M')).toBe(60_000);
    expect(refused(durationSetting(), '30').ok).toBe(false);
    expect(refused(durationSetting(), '-5s')).toEqual({ ok: false, message: 'negative' });
  });

  it('url parses absolute URLs of the allowed protocols', () => {
    const p = urlSetting({ protocols: ['http', 'https'] });
    expect(value(p, 'https://example.com/app').href).toBe('https://example.com/app');
    expect(refused(p, 'example.com')).toEqual({ ok: false, message: 'not an absolute URL' });
    expect(refused(p, 'ftp://example.com')).toEqual({ ok: false, message: 'protocol ftp: is not allowed' });
  });

  it.each([
    ['127.0.0.1:3000', { host: '127.0.0.1', port: 3000 }],
    ['0.0.0.0:8080', { host: '0.0.0.0', port: 8080 }],
    ['[::1]:3000', { host: '::1', port: 3000 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
  ])('address %s', (text, expected) => {
    expect(value(addressSetting(), text)).toEqual(expected);
  });

  it.each(['3000', 'localhost', '::1:3000', 'host:99999', 'host:port'])('address refuses %s', (text) => {
    expect(refused(addressSetting(), text).ok).toBe(false);
  });

  it('list parses each item and names the bad one', () => {
    const p = listSetting(integerSetting());
    expect(value(p, ' 1, 2 ,,3 ')).toEqual([1, 2, 3]);
    expect(refused(p, '1,x')).toEqual({ ok: false, message: 'item 2 is not valid (not an integer)' });
  });

  it('app key accepts base64: + 32 bytes and explains refusals without quoting the key', () => {
    const key = Buffer.alloc(32, 7);
    expect(value(appKeySetting(), `base64:${key.toString('base64')}`)).toEqual(key);
    expect(refused(appKeySetting(), key.toString('base64'))).toEqual({ ok: false, message: 'does not start with "base64:"' });
    expect(refused(appKeySetting(), `base64:${Buffer.alloc(16).toString('base64')}`)).toEqual({
      ok: false,
      message: 'decodes to 16 bytes, not 32',
    });
    expect(refused(appKeySetting(), 'base64:not base64!')).toEqual({ ok: false, message: 'the part after "base64:" is not base64' });
  });
});

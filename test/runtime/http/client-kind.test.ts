import { describe, expect, it } from 'vitest';
import { decideClientKind } from '../../../runtime/http/client-kind.js';

describe('decideClientKind', () => {
  it('reads Accept ranges with parameters, spaces and case', () => {
    expect(decideClientKind({ accept: 'application/json' }).wantsJson).toBe(true);
    expect(decideClientKind({ accept: 'text/plain, Application/Problem+JSON;q=0.5' }).wantsJson).toBe(true);
    expect(decideClientKind({ accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' })).toMatchObject({
      isBrowser: true,
      wantsJson: false,
    });
    expect(decideClientKind({ accept: 'text/html;level=1;q=0.2' }).isBrowser).toBe(true);
  });

  it('treats a range refused with q=0 as not listed', () => {
    expect(decideClientKind({ accept: 'application/json;q=0, text/html' })).toMatchObject({ wantsJson: false, isBrowser: true });
    expect(decideClientKind({ accept: 'text/html; Q=0.0' }).isBrowser).toBe(false);
    expect(decideClientKind({ accept: 'text/html;charset=utf-8;q=0' }).isBrowser).toBe(false);
  });

  it('ignores empty ranges and falls back to the body type and X-Requested-With', () => {
    expect(decideClientKind({ accept: ',, ,' })).toMatchObject({ wantsJson: false, isBrowser: false });
    expect(decideClientKind({ 'content-type': 'application/vnd.api+json; charset=utf-8' }).wantsJson).toBe(true);
    expect(decideClientKind({ 'x-requested-with': 'XMLHttpRequest' }).wantsJson).toBe(true);
    expect(decideClientKind({ 'sec-fetch-mode': 'navigate' }).isBrowser).toBe(true);
  });

  it("a request carrying a token is an API client (wantsJson), whatever its Accept; a browser's own credentials are not", () => {
    expect(decideClientKind({ authorization: 'Bearer 12|abc', accept: '*/*' }).wantsJson).toBe(true);
    expect(decideClientKind({ authorization: 'bearer 12|abc' }).wantsJson).toBe(true);
    expect(decideClientKind({ authorization: 'BEARER' }).wantsJson).toBe(true); // malformed, still a token client (401 invalid_token)
    expect(decideClientKind({ authorization: 'Token 12|abc' }).wantsJson).toBe(true); // a group's own scheme
    expect(decideClientKind({ authorization: 'Bearer 12|abc', accept: 'text/html' })).toMatchObject({ wantsJson: true, isBrowser: true });
    for (const authorization of ['Basic dTpw', 'basic dTpw', 'Digest username="u"', 'Negotiate YII=', 'NTLM TlRM', ''])
      expect(decideClientKind({ authorization, accept: 'text/html' }).wantsJson, authorization).toBe(false);
  });

  it('decides again when a token comes or goes, the other headers unchanged', () => {
    expect(decideClientKind({ accept: 'text/html' }).wantsJson).toBe(false);
    expect(decideClientKind({ accept: 'text/html', authorization: 'Bearer 1|a' }).wantsJson).toBe(true);
    // Another token is the same decision, shared.
    expect(decideClientKind({ accept: 'text/html', authorization: 'Bearer 2|b' })).toBe(
      decideClientKind({ accept: 'text/html', authorization: 'Bearer 1|a' }),
    );
    expect(decideClientKind({ accept: 'text/html' }).wantsJson).toBe(false);
  });

  it('decides again when any deciding header differs from the last request, and shares the decision when none does', () => {
    const json = decideClientKind({ accept: 'application/json' });
    expect(decideClientKind({ accept: 'application/json' })).toBe(json);
    expect(decideClientKind({ accept: 'application/json', 'hx-request': 'true' })).toMatchObject({ wantsJson: true, isHtmx: true });
    expect(decideClientKind({ accept: 'application/json', 'hx-boosted': 'true' })).toMatchObject({ isHtmx: false, isHtmxBoosted: true });
    expect(decideClientKind({ accept: 'application/json', 'sec-fetch-mode': 'navigate' }).isBrowser).toBe(true);
    expect(decideClientKind({ 'content-type': 'application/json' })).toMatchObject({ wantsJson: true, isBrowser: false });
    expect(decideClientKind({ 'x-requested-with': 'xmlhttprequest' }).wantsJson).toBe(true);
    expect(decideClientKind({})).toMatchObject({ wantsJson: false, isBrowser: false, isHtmx: false, isHtmxBoosted: false });
    expect(Object.isFrozen(json)).toBe(true);
  });
});

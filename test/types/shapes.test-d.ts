/**
 * Type-level tests of output shapes (docs/schema-language.md "Output
 * shapes"): the handler contract requires the declared shape (a wrong or
 * missing member fails the type check) and the typed client promises its
 * JSON. Run by `npm run test:types` (and the type check of `npm run check`).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { createClient, DocumentsHistoryOutputJson, HistoryEventJson, MeJson } from '../../generated/client.js';
import type { Handlers } from '../../generated/handlers.js';
import type { Document, DocumentsHistoryOutput, Me, User } from '../../generated/types.js';
import { json } from '../../runtime/results/result.js';

type Client = ReturnType<typeof createClient>;
type HandlerFnOf<H> = Extract<H, (...args: never[]) => unknown>;

const user = { id: 1, name: 'Ada', email: 'ada@example.com', email_verified_at: null, admin: false } as unknown as User;
const doc = { id: 7 } as unknown as Document;

describe('output shapes in the handler contract', () => {
  it('api.me returns its shape Me (a projection of User with avatar_url)', () => {
    expectTypeOf<Me>().toExtend<Awaited<ReturnType<HandlerFnOf<Handlers['api.me']>>>>();
    expectTypeOf<Me['email_verified_at']>().toEqualTypeOf<Date | null>();
    expectTypeOf<Me['avatar_url']>().toEqualTypeOf<string | null | undefined>();
    const ok: Handlers['api.me'] = () => ({ ...user, avatar_url: null });
    const asJson: Handlers['api.me'] = () => json<Me>({ ...user, avatar_url: 'https://x/y' });
    // @ts-expect-error avatar_url is a string or null
    const wrongMember: Handlers['api.me'] = () => ({ ...user, avatar_url: 42 });
    // @ts-expect-error email is missing (a nullable member such as avatar_url may be left out: it is written as null)
    const missingMember: Handlers['api.me'] = () => ({ id: 1, name: 'Ada', email_verified_at: null, admin: false });
    // @ts-expect-error a bare string is not the shape
    const wrongBody: Handlers['api.me'] = () => 'me';
    void [ok, asJson, wrongMember, missingMember, wrongBody];
  });

  it('documents.history returns { events, next? } of HistoryEvent', () => {
    const page: DocumentsHistoryOutput = { events: [{ at: new Date(), actor: 'system', action: 'created', via: null }] };
    const ok: Handlers['documents.history'] = () => page;
    // @ts-expect-error an event's action is a string
    const wrongEvent: Handlers['documents.history'] = () => ({ events: [{ at: 'x', actor: 'system', action: 1, via: null }] });
    // @ts-expect-error events is a list
    const notAList: Handlers['documents.history'] = () => ({ events: 'none' });
    void [ok, wrongEvent, notAList, doc];
  });
});

describe('output shapes in the typed client', () => {
  it('GET /api/me promises MeJson: timestamps as text, no hidden field', () => {
    expectTypeOf<ReturnType<Client['api']['me']>>().toEqualTypeOf<Promise<MeJson>>();
    expectTypeOf<MeJson['email_verified_at']>().toEqualTypeOf<string | null>();
    expectTypeOf<MeJson['avatar_url']>().toEqualTypeOf<string | null>();
    expectTypeOf<MeJson>().not.toHaveProperty('password');
    const read = async (api: Client) => {
      const me = await api.api.me();
      const id: number = me.id;
      // @ts-expect-error the name is a string
      const wrong: number = me.name;
      // @ts-expect-error Me declares no password
      void me.password;
      return [id, wrong];
    };
    void read;
  });

  it('documents.history promises its envelope of HistoryEventJson', () => {
    expectTypeOf<ReturnType<Client['documents']['history']>>().toEqualTypeOf<Promise<DocumentsHistoryOutputJson>>();
    expectTypeOf<DocumentsHistoryOutputJson['events']>().toEqualTypeOf<HistoryEventJson[]>();
    expectTypeOf<DocumentsHistoryOutputJson['next']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<HistoryEventJson['at']>().toEqualTypeOf<string>();
    const read = async (api: Client) => {
      const page = await api.documents.history({ id: 7 });
      // @ts-expect-error the route declares no member "total"
      void page.total;
      // @ts-expect-error an event's via is a string or null
      const via: string = page.events[0]!.via;
      return via;
    };
    void read;
  });
});

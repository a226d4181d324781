/**
 * GET /notes as a list route (docs/schema-language.md "List routes") over
 * real HTTP against the reference app: walking thousands of notes page by
 * page while others are inserted, every sort and filter, bad cursors and
 * parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bootTestKit, type TestKit } from 'bindery/testing';
import notesApp from '../../app/main.js';
import type { CursorSealer } from '../../runtime/crypto/cursor-codec.js';
import type { Handlers } from '../../generated/handlers.js';
import { routes } from '../../generated/routes.js';
import type { Database } from '../../generated/types.js';
import { testServerUrl } from '../support/database.js';
import { sqlDialectOf } from '../../runtime/db/sql-dialect.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { ApiError, createClient, pages, rows } from '../../generated/client.js';

let t: TestKit<Handlers, Database>;

/** Notes made before the walks, by title. 3,000 rows; created_at has ties (groups of 3 share one instant). */
const ROWS = 3000;

beforeAll(async () => {
  t = await bootTestKit<Handlers, Database>(notesApp, { routes, serverUrl: testServerUrl(), prefix: 'notes_list', env: referenceAppEnv });
  await t.db.deleteFrom('notes').execute();
  // created_at with microseconds (JavaScript's Date has milliseconds): as text, in the engine's words for a UTC instant.
  const utc = sqlDialectOf(t.db) === 'mysql' ? '' : '+00:00';
  const rows = Array.from({ length: ROWS }, (_, k) => {
    const i = k + 1;
    const us = 123_456 + Math.floor(i / 3) * 1_000_001;
    const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(us / 1000)).toISOString().slice(0, 19).replace('T', ' ');
    return {
      title: `n${String(i).padStart(5, '0')}`,
      body: '',
      tags: i % 10 === 0 ? ['ten'] : [],
      created_at: `${at}.${String(us % 1_000_000).padStart(6, '0')}${utc}` as unknown as Date,
    };
  });
  for (let k = 0; k < rows.length; k += 500)
    await t.db
      .insertInto('notes')
      .values(rows.slice(k, k + 500))
      .execute();
});
afterAll(async () => {
  await t?.close();
});

interface Page {
  data: { id: number; title: string; tags?: string[]; created_at: string }[];
  next: string | null;
}

async function get(query: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.url}/notes${query}`, { headers: { accept: 'application/json' } });
  return { status: res.status, body: await res.json() };
}

async function page(query: string): Promise<Page> {
  const res = await get(query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Page;
}

/** Every row of a walk (`query` starts with `?`), following `next`; `between` runs after each page. */
async function walk(query: string, between: () => void = () => {}): Promise<Page['data']> {
  const rows: Page['data'] = [];
  let next: string | null = null;
  do {
    const p: Page = await page(next === null ? query : `${query}&cursor=${encodeURIComponent(next)}`);
    rows.push(...p.data);
    next = p.next;
    between();
  } while (next !== null);
  return rows;
}

describe('notes.list | paging', () => {
  it('walks 3,000 notes newest first, each exactly once and in order, while notes are being inserted', async () => {
    const before = await t.db.selectFrom('notes').select(['id', 'title']).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    // Concurrent writers, from the first page on: new notes over HTTP (now, so newest) and notes with
    // a timestamp in the middle of the order, inserted directly.
    let inserted = 0;
    let writing: Promise<void> | undefined;
    let done = false;
    const writer = async () => {
      while (!done) {
        await Promise.all([
          fetch(`${t.url}/notes`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ title: `new ${inserted}` }),
          }).then((r) => r.arrayBuffer()),
          t.db
            .insertInto('notes')
            .values({ title: `old ${inserted}`, created_at: new Date('2026-01-01T00:10:00Z') })
            .execute(),
        ]);
        inserted++;
      }
    };
    const seen = await walk('?limit=97', () => {
      writing ??= writer();
    });
    done = true;
    await writing;
    expect(inserted).toBeGreaterThan(0);
    const ids = seen.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const walked = new Set(ids);
    for (const row of before) expect(walked.has(row.id)).toBe(true);
    // In order: (created_at, id) strictly decreasing.
    for (let i = 1; i < seen.length; i++) {
      const a = seen[i - 1]!,
        b = seen[i]!;
      expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id), `${a.id} before ${b.id}`).toBe(true);
    }
    // Rows newer than the walk's first page never show up; the old-timestamp ones below the walk's position may.
    expect(seen.filter((r) => r.title.startsWith('new ')).length).toBe(0);
  });

  it('walks by title ascending (sort=title) and by id descending, each row once, in order', async () => {
    const byTitle = await walk('?sort=title&limit=100');
    const titles = byTitle.map((r) => r.title);
    const expected = (await t.db.selectFrom('notes').select('title').orderBy('title').orderBy('id').execute()).map((r) => r.title);
    expect(titles).toEqual(expected);
    const byId = await walk('?sort=-id&limit=100');
    const ids = byId.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(
      await t.db
        .selectFrom('notes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n)),
    );
  });

  it('keeps microsecond timestamps exact across pages (ties broken by id)', async () => {
    const rows = await walk('?sort=created_at&limit=2&filter[created_at][lt]=2026-01-01T00:00:03Z');
    // 2026-01-01T00:00:00.123456Z + k·1.000001 s for k = 0, 1, 2 (3 rows each but k = 0: i = 1, 2).
    expect(rows.map((r) => r.title)).toEqual(['n00001', 'n00002', 'n00003', 'n00004', 'n00005', 'n00006', 'n00007', 'n00008']);
  });
});

describe('notes.list | filters', () => {
  it('filter[title] is a prefix (with % and _ taken literally)', async () => {
    const rows = await walk('?filter[title]=n0001&sort=title');
    expect(rows.map((r) => r.title)).toEqual(Array.from({ length: 10 }, (_, i) => `n0001${i}`));
    await t.db
      .insertInto('notes')
      .values([{ title: '50% off' }, { title: '50_ off' }, { title: '500 off' }])
      .execute();
    expect((await page('?filter[title]=50%25')).data.map((r) => r.title)).toEqual(['50% off']);
    expect((await page('?filter[title]=50_')).data.map((r) => r.title)).toEqual(['50_ off']);
  });

  it('filter[tags] keeps notes whose tags contain the value; filters combine', async () => {
    const ten = await walk('?filter[tags]=ten&limit=100');
    expect(ten).toHaveLength(ROWS / 10);
    expect(ten.every((r) => r.tags?.includes('ten'))).toBe(true);
    const both = await page('?filter[tags]=ten&filter[title]=n001&sort=title');
    expect(both.data.map((r) => r.title)).toEqual([
      'n00100',
      'n00110',
      'n00120',
      'n00130',
      'n00140',
      'n00150',
      'n00160',
      'n00170',
      'n00180',
      'n00190',
    ]);
  });

  it('filter[created_at][gte|gt|lte|lt] bound the range', async () => {
    const at = (k: number) => new Date(Date.parse('2026-01-01T00:00:00.123Z') + k * 1000).toISOString();
    const rows = await walk(`?sort=created_at&filter[created_at][gte]=${at(10)}&filter[created_at][lt]=${at(12)}`);
    // k = 10 and 11 (the instants are k·1.000001 s after .123456, so gte .123 includes k = 10, lt k = 12 at .123 excludes it).
    expect(rows.map((r) => r.title)).toEqual(['n00030', 'n00031', 'n00032', 'n00033', 'n00034', 'n00035']);
    const gtLte = await walk(`?sort=created_at&filter[created_at][gt]=${at(10)}&filter[created_at][lte]=${at(11)}`);
    expect(gtLte.map((r) => r.title)).toEqual(['n00030', 'n00031', 'n00032']);
  });
});

describe('notes.list | one compiled query per shape', () => {
  const titles = (p: Page) => p.data.map((r) => r.title);
  const seeded = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `n${String(from + i).padStart(5, '0')}`);

  it("runs the same shape with each request's own values (no stale parameters)", async () => {
    // Same shape (sort=title, one prefix filter, no cursor), values alternating.
    for (const prefix of ['n0001', 'n0023', 'n0001', 'n0299']) {
      const n = Number(prefix.slice(1)) * 10;
      expect(titles(await page(`?sort=title&limit=4&filter[title]=${prefix}`))).toEqual(seeded(n, n + 3));
    }
    // Same shape with a cursor: each cursor's own keys, and each request's own limit.
    const a = await page('?sort=title&limit=3&filter[title]=n0001');
    const b = await page('?sort=title&limit=3&filter[title]=n0002');
    expect(titles(await page(`?sort=title&limit=2&filter[title]=n0002&cursor=${encodeURIComponent(b.next!)}`))).toEqual(seeded(23, 24));
    expect(titles(await page(`?sort=title&limit=5&filter[title]=n0001&cursor=${encodeURIComponent(a.next!)}`))).toEqual(seeded(13, 17));
  });

  it('gives each shape its own query: order, direction, cursor and each set of filters', async () => {
    const asc = await page('?sort=title&limit=3&filter[title]=n0001');
    const desc = await page('?sort=-title&limit=3&filter[title]=n0001');
    expect(titles(asc)).toEqual(seeded(10, 12));
    expect(titles(desc)).toEqual(seeded(17, 19).reverse());
    // One filter, another filter, both, none: the same value space, different SQL.
    expect(titles(await page('?sort=title&limit=3&filter[tags]=ten'))).toEqual(['n00010', 'n00020', 'n00030']);
    expect(titles(await page('?sort=title&limit=3&filter[tags]=ten&filter[title]=n002'))).toEqual(['n00200', 'n00210', 'n00220']);
    expect(titles(await page('?sort=title&limit=3&filter[title]=n002'))).toEqual(seeded(200, 202));
    const bound = (i: number) => encodeURIComponent(new Date(Date.parse('2026-01-01T00:00:00.123Z') + i * 1000).toISOString());
    const gte = await page(`?sort=created_at&limit=100&filter[created_at][gte]=${bound(3)}&filter[title]=n0001`);
    const lt = await page(`?sort=created_at&limit=100&filter[created_at][lt]=${bound(3)}&filter[title]=n0001`);
    expect(titles(gte)).toEqual(seeded(10, 19));
    expect(titles(lt)).toEqual([]);
    // The same query text without and with a cursor.
    expect(titles(await page(`?sort=-title&limit=3&filter[title]=n0001&cursor=${encodeURIComponent(desc.next!)}`))).toEqual(
      seeded(14, 16).reverse(),
    );
    expect(titles(await page('?sort=-title&limit=3&filter[title]=n0001'))).toEqual(seeded(17, 19).reverse());
  });
});

describe('notes.list | bad input', () => {
  it('answers 400 errors.cursor for a forged, edited or truncated cursor', async () => {
    const { next } = await page('?limit=5');
    expect(next).toEqual(expect.any(String));
    const [body, tag] = next!.split('.') as [string, string];
    const values = JSON.parse(Buffer.from(body, 'base64url').toString()) as unknown[];
    values[3] = '2000-01-01T00:00:00Z';
    const forged = `${Buffer.from(JSON.stringify(values)).toString('base64url')}.${tag}`;
    for (const cursor of [forged, next!.slice(0, -2), 'nonsense', `${body}.`, '.x']) {
      const res = await get(`?limit=5&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body).toMatchObject({ status: 400, errors: { cursor: expect.stringContaining('not valid') } });
    }
  });

  it('answers 400 for a cursor used with another sort or other filters', async () => {
    const { next } = await page('?limit=5&sort=title');
    const otherSort = await get(`?limit=5&sort=-title&cursor=${encodeURIComponent(next!)}`);
    expect(otherSort.status).toBe(400);
    expect(otherSort.body.errors.cursor).toMatch(/sort=title, not sort=-title/);
    const otherFilter = await get(`?limit=5&sort=title&filter[title]=n&cursor=${encodeURIComponent(next!)}`);
    expect(otherFilter.status).toBe(400);
    expect(otherFilter.body.errors.cursor).toMatch(/other filters/);
    // The same sort and filters: fine, whatever the limit.
    expect((await get(`?limit=7&sort=title&cursor=${encodeURIComponent(next!)}`)).status).toBe(200);
  });

  it('answers 422 naming an unknown filter or sort and listing the allowed ones', async () => {
    const filter = await get('?filter[body]=x');
    expect(filter.status).toBe(422);
    expect(filter.body.errors).toEqual({
      'filter[body]':
        'filter[body] is not a filter of this list; the filters are: filter[title], filter[tags], filter[created_at][gte], filter[created_at][gt], filter[created_at][lte], filter[created_at][lt].',
    });
    const sort = await get('?sort=body');
    expect(sort.status).toBe(422);
    expect(sort.body.errors).toEqual({
      sort: 'sort=body is not an order of this list; sort by one of: created_at, -created_at, title, -title, id, -id.',
    });
  });

  it('answers 422 for limit over maxLimit or under 0, 400 for a value of the wrong type', async () => {
    const over = await get('?limit=101');
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ limit: 'The limit field must not be greater than 100.' });
    const under = await get('?limit=-1');
    expect(under.status).toBe(422);
    expect(Object.keys(under.body.errors)).toEqual(['limit']);
    const badDate = await get('?filter[created_at][gte]=yesterday');
    expect(badDate.status).toBe(400);
    expect(Object.keys(badDate.body.errors)).toEqual(['filter[created_at][gte]']);
  });
});

describe('notes.list | limit 0 to 100 (docs/spec.md 4.3, 8)', () => {
  it('limit=0 answers 200 with an empty page; limit=100 a full page of 100', async () => {
    expect(await page('?limit=0')).toEqual({ data: [], next: null });
    expect(await page('?limit=0&sort=title&filter[title]=n0')).toEqual({ data: [], next: null });
    const full = await page('?limit=100&sort=title&filter[title]=n0');
    expect(full.data).toHaveLength(100);
    expect(full.data[0]!.title).toBe('n00001');
    expect(full.next).toEqual(expect.any(String));
    // An empty page still checks its cursor.
    const forged = await get(`?limit=0&sort=title&filter[title]=n0&cursor=${encodeURIComponent(`${full.next!.slice(0, -2)}xx`)}`);
    expect(forged.status).toBe(400);
    expect(Object.keys(forged.body.errors)).toEqual(['cursor']);
  });
});

describe('notes.list | cursors on every engine (docs/database.md "Lists and cursors")', () => {
  const sealer = () => t.app.running.services.cursors as CursorSealer;
  /** The values of a `next` cursor: route, sort, filters, sort key text, primary key text. */
  const opened = (cursor: string) => sealer().open(cursor) as [string, string, string, unknown, unknown];
  /** `cursor` with other sort and primary key texts, sealed again with the app's key. */
  const withKeys = (cursor: string, sort: unknown, key: unknown) => {
    const [route, order, filters] = opened(cursor);
    return sealer().seal([route, order, filters, sort, key]);
  };
  /** The sort key and primary key of note `id` as PostgreSQL's JSON text, in the session time zone `zone`: what cursors held before. */
  const oldTexts = async (id: number, column: 'created_at' | 'title', zone: string) => {
    if (sqlDialectOf(t.db) === 'mysql') return oldTextsOnMysql(id, column, zone);
    return t.db.transaction().execute(async (trx) => {
      await sql`select set_config('TimeZone', ${zone}, true)`.execute(trx);
      const { rows } = await sql<{
        sort: string;
        key: string;
      }>`select to_json(${sql.ref(column)}) #>> '{}' as sort, to_json(id) #>> '{}' as key from notes where id = ${id}`.execute(trx);
      return rows[0]!;
    });
  };
  /** The same texts on MySQL: PostgreSQL's JSON text of the stored UTC instant, written in JavaScript for `zone`. */
  const oldTextsOnMysql = async (id: number, column: 'created_at' | 'title', zone: string) => {
    const { rows } = await sql<{
      title: string;
      at: string;
    }>`select title, date_format(created_at, '%Y-%m-%dT%H:%i:%s.%f') as at from notes where id = ${id}`.execute(t.db);
    const row = rows[0]!;
    return { sort: column === 'title' ? row.title : postgresJsonText(row.at, zone), key: String(id) };
  };

  it('keeps the neutral text in a cursor: instants in UTC with six fraction digits and a Z, keys in decimal', async () => {
    const first = await page('?limit=3');
    const [, sort, , sortText, keyText] = opened(first.next!);
    expect(sort).toBe('-created_at');
    expect(sortText).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(new Date(sortText as string).toISOString()).toBe(first.data[2]!.created_at);
    expect(keyText).toBe(String(first.data[2]!.id));
    const byTitle = await page('?sort=title&limit=2');
    expect(opened(byTitle.next!).slice(3)).toEqual([byTitle.data[1]!.title, String(byTitle.data[1]!.id)]);
  });

  it('follows a cursor made before (PostgreSQL JSON text: an offset such as +00:00 or +05:30) for a timestamp sort and a text sort', async () => {
    for (const order of ['-created_at', 'created_at', 'title', '-title']) {
      const first = await page(`?sort=${order}&limit=4`);
      const last = first.data[3]!;
      const expected = (await page(`?sort=${order}&limit=4&cursor=${encodeURIComponent(first.next!)}`)).data.map((r) => r.id);
      expect(expected).toHaveLength(4);
      const column = order.endsWith('title') ? 'title' : 'created_at';
      for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
        const old = await oldTexts(last.id, column, zone);
        if (column === 'created_at') expect(old.sort).toMatch(/[+-]\d{2}:\d{2}$/);
        const followed = await page(`?sort=${order}&limit=4&cursor=${encodeURIComponent(withKeys(first.next!, old.sort, old.key))}`);
        expect(
          followed.data.map((r) => r.id),
          `${order} ${zone} ${old.sort}`,
        ).toEqual(expected);
      }
    }
  });

  it('answers 400 errors.cursor, never 500, for a sealed cursor whose keys do not read back as the columns', async () => {
    const { next } = await page('?limit=3');
    const [, , , sortText, keyText] = opened(next!);
    const unreadable: [unknown, unknown][] = [
      ['yesterday', keyText],
      ['2026-02-30T00:00:00.000000Z', keyText],
      ['2026-01-01T25:00:00Z', keyText],
      [sortText, 'twelve'],
      [sortText, '99999999999999999999'],
      [sortText, '1.5'],
    ];
    for (const [sort, key] of unreadable) {
      const res = await get(`?limit=3&cursor=${encodeURIComponent(withKeys(next!, sort, key))}`);
      expect(res.status, `${sort} ${key}`).toBe(400);
      expect(res.body).toMatchObject({ status: 400, errors: { cursor: expect.stringContaining('not valid') } });
    }
    const byTitle = await page('?sort=title&limit=3');
    expect((await get(`?sort=title&limit=3&cursor=${encodeURIComponent(withKeys(byTitle.next!, 'any text', 'x'))}`)).status).toBe(400);
  });
});

describe('notes.list | the typed client', () => {
  it('pages() and rows() walk every page with the same sort and filters; a bad cursor is an ApiError 400', async () => {
    const api = createClient({ baseUrl: t.url });
    const titles: string[] = [];
    for await (const note of rows(api.notes.list, { sort: 'title', filter_title: 'n002', limit: 30 })) titles.push(note.title);
    expect(titles).toEqual(Array.from({ length: 100 }, (_, i) => `n002${String(i).padStart(2, '0')}`));
    let count = 0;
    for await (const p of pages(api.notes.list, { sort: 'title', filter_title: 'n002', limit: 30 })) {
      count++;
      expect(p.next === null).toBe(count === 4);
    }
    expect(count).toBe(4);
    const bad = await api.notes.list({ cursor: 'x.y' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect((bad as ApiError).status).toBe(400);
    expect((bad as ApiError).errors.cursor).toMatch(/not valid/);
  });
});

/** PostgreSQL's JSON text of a timestamptz (`YYYY-MM-DDTHH:MM:SS.ffffff+hh:mm`) in `zone`, from its UTC text with microseconds. */
function postgresJsonText(utc: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    timeZoneName: 'longOffset',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(`${utc.slice(0, 23)}Z`));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  const offset = part('timeZoneName').replace(/^GMT$/, 'GMT+00:00').slice(3);
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}.${utc.slice(20, 26)}${offset}`;
}

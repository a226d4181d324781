/**
 * Body decoding (docs/spec.md 4.5 step 1; docs/spec.md 7: 400, 413, 415), over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadedFile } from '../../../runtime/routing/route-table.js';
import { field, route } from './support/routes.js';
import { call, closeAll, postJson, rawRequest, startServer, type TestServer } from './support/server.js';

const LIMIT = 2048;

const upload = route({
  name: 'upload',
  method: 'POST',
  path: '/upload',
  fields: [
    field('title', 'string', { json: 'title' }),
    field('tags', 'string[]', { json: 'tags' }),
    field('avatar', 'file', { form: 'avatar' }),
    field('docs', 'file[]', { form: 'docs' }),
  ],
});

const describeFile = (f: UploadedFile | undefined) =>
  f && { filename: f.filename, mimetype: f.mimetype, size: f.size, text: f.data?.toString('utf8') };

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    maxBodyBytes: LIMIT,
    routes: [upload],
    handlers: {
      upload: (input: { title?: string; tags?: string[]; avatar?: UploadedFile; docs?: UploadedFile[] }) => ({
        title: input.title ?? null,
        tags: input.tags ?? null,
        avatar: describeFile(input.avatar) ?? null,
        docs: input.docs?.map(describeFile) ?? null,
      }),
    },
  });
});
afterAll(closeAll);

const problem = (status: number, detail: string, requestId: string | null) => ({
  type: 'about:blank',
  title: expect.any(String),
  status,
  detail,
  request_id: requestId,
});

describe('Body | JSON', () => {
  it('decodes application/json and any +json type', async () => {
    const res = await call(`${server.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' },
      body: '{"title":"api"}',
    });
    expect(res.status).toBe(200);
    expect(res.json().title).toBe('api');
  });

  it('400 for malformed JSON and JSON that is not an object; an empty JSON body is no body', async () => {
    const bad = await call(`${server.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title": nope}',
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual(problem(400, 'The request body is not valid JSON.', bad.headers.get('x-request-id')));
    const empty = await call(`${server.url}/upload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
    expect(empty.status).toBe(200);
    expect(empty.json()).toEqual({ title: null, tags: null, avatar: null, docs: null });
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const res = await call(`${server.url}/upload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      expect(res.json().detail).toBe('The request body must be a JSON object.');
    }
  });

  it('400 for a prototype-poisoning JSON body', async () => {
    const res = await call(`${server.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__":{"x":1}}',
    });
    expect(res.status).toBe(400);
  });
});

describe('Body | 413 over HTTP_MAX_BODY', () => {
  it('JSON larger than the limit', async () => {
    const res = await postJson(`${server.url}/upload`, { title: 'x'.repeat(LIMIT + 10) });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.json()).toEqual(
      problem(413, `The request body is larger than the limit of ${LIMIT} bytes (HTTP_MAX_BODY).`, res.headers.get('x-request-id')),
    );
    expect(res.json().title).toBe('Content Too Large');
  });

  it('a declared Content-Length over the limit is refused before the body is read', async () => {
    const res = await rawRequest(`${server.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': 50 * 1024 * 1024 },
      body: null,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).status).toBe(413);
  });

  it('a multipart file larger than the limit: 413 naming the field (a file field without a size rule is limited to HTTP_MAX_BODY)', async () => {
    const form = new FormData();
    form.append('avatar', new Blob(['x'.repeat(LIMIT + 1)], { type: 'image/png' }), 'big.png');
    const res = await call(`${server.url}/upload`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.json().detail).toBe('The avatar field must not be greater than 2 kilobytes.');
    expect(res.json().errors).toEqual({ avatar: 'The avatar field must not be greater than 2 kilobytes.' });
  });

  it('multipart text fields together larger than the limit', async () => {
    const form = new FormData();
    form.append('title', 'y'.repeat(LIMIT / 2));
    form.append('tags', 'z'.repeat(LIMIT / 2));
    const res = await call(`${server.url}/upload`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.json().detail).toBe(`The request body is larger than the limit of ${LIMIT} bytes (HTTP_MAX_BODY).`);
  });

  it('a chunked multipart body (no Content-Length) growing past the limit', async () => {
    const boundary = 'XBOUNDARY';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${'y'.repeat(LIMIT)}\r\n--${boundary}--\r\n`;
    const res = await rawRequest(`${server.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked', accept: 'application/json' },
      body: part,
    });
    expect(res.status).toBe(413);
  });
});

describe('Body | 415 for other content types', () => {
  it('text/plain', async () => {
    const res = await call(`${server.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
    expect(res.json()).toEqual(
      problem(
        415,
        'Content-Type text/plain is not supported; send application/json (or application/*+json), application/x-www-form-urlencoded or multipart/form-data.',
        res.headers.get('x-request-id'),
      ),
    );
    expect(res.json().title).toBe('Unsupported Media Type');
  });

  it('a body without Content-Type', async () => {
    const res = await rawRequest(`${server.url}/upload`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-length': 5 },
      body: 'hello',
    });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body).detail).toBe(
      'A body without Content-Type is not supported; send application/json (or application/*+json), application/x-www-form-urlencoded or multipart/form-data.',
    );
  });
});

describe('Body | multipart forms and files', () => {
  it('binds text fields, repeated names into lists, and files held in memory with their size in bytes', async () => {
    const form = new FormData();
    form.append('title', 'with files');
    form.append('tags', 'a');
    form.append('tags', 'b');
    form.append('avatar', new Blob(['PNGDATA'], { type: 'image/png' }), 'me.png');
    form.append('docs', new Blob(['one'], { type: 'text/plain' }), 'one.txt');
    form.append('docs', new Blob(['€two'], { type: 'text/plain' }), 'two.txt');
    const res = await call(`${server.url}/upload`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      title: 'with files',
      tags: ['a', 'b'],
      avatar: { filename: 'me.png', mimetype: 'image/png', size: 7, text: 'PNGDATA' },
      docs: [
        { filename: 'one.txt', mimetype: 'text/plain', size: 3, text: 'one' },
        { filename: 'two.txt', mimetype: 'text/plain', size: 6, text: '€two' },
      ],
    });
  });

  it('a text value for a file field, or a file for a text field, is a conversion failure', async () => {
    const form = new FormData();
    form.append('avatar', 'not a file');
    form.append('title', new Blob(['x']), 'title.txt');
    const res = await call(`${server.url}/upload`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json().errors).toEqual({ title: 'The title field must be a string.', avatar: 'The avatar field must be a file.' });
  });

  it('an empty file input (no filename, no bytes) counts as absent', async () => {
    // What a browser sends for an <input type=file> left empty.
    const body =
      '--B\r\nContent-Disposition: form-data; name="avatar"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--B--\r\n';
    const res = await call(`${server.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=B' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.json().avatar).toBeNull();
  });

  it('400 for a malformed multipart body', async () => {
    const res = await call(`${server.url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data', accept: 'application/json' },
      body: 'garbage',
    });
    expect(res.status).toBe(400);
    expect(res.json().detail).toMatch(/^The multipart body is malformed: /);
  });
});

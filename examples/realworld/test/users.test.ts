/** Registration, login, the current user and profiles, as the RealWorld specification has them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot, call, register, type Kit } from './support.js';

let t: Kit;
beforeAll(async () => {
  t = await boot();
});
afterAll(() => t?.close());

describe('users', () => {
  it('registers (201) and answers the user with a token that signs in', async () => {
    const res = await call(t, 'POST', '/users', { user: { username: 'ada', email: 'Ada@Example.com', password: 'password' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ user: { email: 'ada@example.com', token: expect.any(String), username: 'ada', bio: '', image: null } });
    const me = await call(t, 'GET', '/user', undefined, res.body.user.token);
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ username: 'ada', token: res.body.user.token });
  });

  it('refuses a taken email or username, and missing fields, with 422 in the specification’s format', async () => {
    await register(t, 'grace');
    const email = await call(t, 'POST', '/users', { user: { username: 'other', email: 'grace@example.com', password: 'password' } });
    expect(email.status).toBe(422);
    expect(email.body).toEqual({ errors: { email: ['has already been taken'] } });
    const username = await call(t, 'POST', '/users', { user: { username: 'grace', email: 'g2@example.com', password: 'password' } });
    expect(username.body).toEqual({ errors: { username: ['has already been taken'] } });
    const both = await call(t, 'POST', '/users', { user: { username: 'grace', email: 'Grace@Example.com', password: 'password' } });
    expect(both.status).toBe(422);
    expect(both.body).toEqual({ errors: { username: ['has already been taken'], email: ['has already been taken'] } });
    const empty = await call(t, 'POST', '/users', { user: { email: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ errors: { username: ["can't be empty"], email: ["can't be empty"], password: ["can't be empty"] } });
    const bad = await call(t, 'POST', '/users', { user: { username: 'x', email: 'not-an-email', password: 'password' } });
    expect(bad.body).toEqual({ errors: { email: ['is invalid'] } });
    const short = await call(t, 'POST', '/users', { user: { username: 'y', email: 'y@example.com', password: 'short' } });
    expect(short.body).toEqual({ errors: { password: ['is too short (minimum is 8 characters)'] } });
    const none = await call(t, 'POST', '/users', {});
    expect(none.body).toEqual({ errors: { user: ["can't be empty"] } });
  });

  it('logs in with the right password only (422 on "email or password" otherwise, as RealWorld clients print it)', async () => {
    await register(t, 'linus');
    const ok = await call(t, 'POST', '/users/login', { user: { email: 'linus@example.com', password: 'password' } });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ email: 'linus@example.com', username: 'linus', token: expect.any(String) });
    const wrong = await call(t, 'POST', '/users/login', { user: { email: 'linus@example.com', password: 'nope-nope' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ errors: { 'email or password': ['is invalid'] } });
    const unknown = await call(t, 'POST', '/users/login', { user: { email: 'nobody@example.com', password: 'nope-nope' } });
    expect(unknown.body).toEqual(wrong.body);
    const missing = await call(t, 'POST', '/users/login', { user: { email: 'linus@example.com' } });
    expect(missing.status).toBe(422);
  });

  it('answers 401 on a required route without a token, with a bad one, or another scheme', async () => {
    const token = await register(t, 'ken');
    for (const authorization of [undefined, 'Token 1|nope', 'Token garbage', `Basic ${token}`]) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      const res = await fetch(`${t.url}/api/user`, { headers });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate'), authorization).toMatch(/^Token/);
      expect(await res.json()).toEqual({ errors: { body: [expect.any(String)] } });
    }
  });

  it('updates the current user; a new password is the one to log in with', async () => {
    const token = await register(t, 'barbara');
    const res = await call(
      t,
      'PUT',
      '/user',
      { user: { email: 'liskov@example.com', bio: 'Substitution.', image: 'https://i.example.com/b.png', password: 'new-password' } },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({
      email: 'liskov@example.com',
      token,
      username: 'barbara',
      bio: 'Substitution.',
      image: 'https://i.example.com/b.png',
    });
    expect((await call(t, 'POST', '/users/login', { user: { email: 'liskov@example.com', password: 'password' } })).status).toBe(422);
    expect((await call(t, 'POST', '/users/login', { user: { email: 'liskov@example.com', password: 'new-password' } })).status).toBe(200);
    const taken = await call(t, 'PUT', '/user', { user: { username: 'ada' } }, token);
    expect(taken.body).toEqual({ errors: { username: ['has already been taken'] } });
  });
});

describe('profiles', () => {
  it('shows a profile, follows and unfollows; following is false for a guest', async () => {
    const fan = await register(t, 'fan');
    await register(t, 'star');
    expect((await call(t, 'GET', '/profiles/star')).body).toEqual({
      profile: { username: 'star', bio: '', image: null, following: false },
    });
    const followed = await call(t, 'POST', '/profiles/star/follow', undefined, fan);
    expect(followed.status).toBe(200);
    expect(followed.body.profile.following).toBe(true);
    expect((await call(t, 'GET', '/profiles/star', undefined, fan)).body.profile.following).toBe(true);
    expect((await call(t, 'GET', '/profiles/star')).body.profile.following).toBe(false);
    const unfollowed = await call(t, 'DELETE', '/profiles/star/follow', undefined, fan);
    expect(unfollowed.body.profile).toEqual({ username: 'star', bio: '', image: null, following: false });
    expect((await call(t, 'GET', '/profiles/star', undefined, fan)).body.profile.following).toBe(false);
  });

  it('404 for an unknown user, 401 for following as a guest', async () => {
    expect((await call(t, 'GET', '/profiles/nobody')).status).toBe(404);
    expect((await call(t, 'POST', '/profiles/star/follow')).status).toBe(401);
  });
});

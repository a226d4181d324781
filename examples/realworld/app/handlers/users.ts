/** Registration, login, the current user and profiles. */
import { authService, LoginFailedError, LoginThrottledError, normalizeLogin } from 'bindery/auth';
import { presentedToken } from 'bindery/auth/tokens';
import { insertIfAbsent, insertReturning, updateReturning } from 'bindery/db';
import { HttpError, NotFoundError, ValidationError } from 'bindery/errors';
import type { RequestContext } from 'bindery/http';
import { created } from 'bindery/results';
import type { Handlers } from '../../generated/handlers.js';
import { load } from '../../generated/relations.js';
import type { User } from '../../generated/types.js';
import { presentUser, viewerId } from '../present.js';

/** A new token for the user (it signs in as `Authorization: Token <token>`; app/auth/tokens.ts). */
const issueToken = (ctx: RequestContext, user: User): Promise<string> => ctx.services.conduitTokens!.issue(String(user.id));

/** 422 when other users have the email or the username, naming every one taken. */
async function ensureFree(ctx: RequestContext, fields: { email?: string | undefined; username?: string | undefined }, self = 0) {
  const { email, username } = fields;
  if (email === undefined && username === undefined) return;
  const taken = await ctx.services.db
    .selectFrom('users')
    .select(['email', 'username'])
    .where((eb) =>
      eb.or([
        ...(email === undefined ? [] : [eb('email', '=', email)]),
        ...(username === undefined ? [] : [eb('username', '=', username)]),
      ]),
    )
    .where('id', '<>', self)
    .execute();
  const errors: Record<string, string> = {};
  if (username !== undefined && taken.some((u) => u.username === username)) errors['username'] = 'has already been taken';
  if (email !== undefined && taken.some((u) => u.email === email)) errors['email'] = 'has already been taken';
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/**
 * The user whose email and password these are, in the words RealWorld
 * clients print (`{"errors": {"email or password": ["is invalid"]}}`, 422);
 * too many attempts are 429 with `Retry-After`.
 */
async function verifiedUser(ctx: RequestContext, email: string, password: string): Promise<User> {
  try {
    return (await authService(ctx).verifyCredentials(ctx, email, password)) as User;
  } catch (error) {
    if (error instanceof LoginFailedError) throw new ValidationError({ 'email or password': 'is invalid' });
    if (error instanceof LoginThrottledError) {
      const seconds = `${error.retryAfter} second${error.retryAfter === 1 ? '' : 's'}`;
      throw new HttpError('BINDERY_RATE_LIMITED', `Too many login attempts. Please try again in ${seconds}.`, {
        headers: { 'retry-after': String(error.retryAfter) },
      });
    }
    throw error;
  }
}

const currentUser = async (ctx: RequestContext) => (await ctx.auth.user()) as User;

async function userNamed(ctx: RequestContext, username: string) {
  const user = await ctx.services.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  if (user === undefined) throw new NotFoundError(`No user is named ${username}.`);
  return user;
}

export const usersHandlers = {
  'users.register': async ({ user: fields }, ctx) => {
    const email = normalizeLogin(fields.email);
    await ensureFree(ctx, { email, username: fields.username });
    const password = await authService(ctx).hashPassword(fields.password);
    const values = { email, username: fields.username, password };
    const user = await insertReturning(ctx.services.db, 'users', values);
    return created(presentUser(user, await issueToken(ctx, user)));
  },

  'users.login': async ({ user: fields }, ctx) => {
    const user = await verifiedUser(ctx, fields.email, fields.password);
    return presentUser(user, await issueToken(ctx, user));
  },

  'user.show': async (_input, ctx) => presentUser(await currentUser(ctx), presentedToken(ctx)!),

  'user.update': async ({ user: fields }, ctx) => {
    const me = await currentUser(ctx);
    const email = fields.email === undefined ? undefined : normalizeLogin(fields.email);
    await ensureFree(ctx, { email, username: fields.username }, me.id);
    const password = fields.password === undefined ? undefined : await authService(ctx).hashPassword(fields.password);
    const changes = {
      email,
      username: fields.username,
      password,
      bio: fields.bio ?? undefined,
      image: fields.image,
      updated_at: new Date(),
    };
    const user = await updateReturning(ctx.services.db, 'users', me.id, changes);
    if (user === undefined) throw new NotFoundError('Your account no longer exists.');
    // A new password ends every other token of the user; the caller's stays (clients keep the token they have).
    if (password !== undefined) await ctx.services.conduitTokens!.revokeOthers(String(me.id), ctx.auth.token!.id);
    return presentUser(user, presentedToken(ctx)!);
  },

  'profiles.show': async (input, ctx) => {
    const [profile] = await load.User(ctx, [await userNamed(ctx, input.username)], ['following']);
    return { profile: profile! };
  },

  'profiles.follow': async (input, ctx) => {
    const user = await userNamed(ctx, input.username);
    const follow = { follower_id: viewerId(ctx)!, followed_id: user.id };
    await insertIfAbsent(ctx.services.db, 'follows', follow, { conflict: ['follower_id', 'followed_id'] });
    return { profile: { ...user, following: true } };
  },

  'profiles.unfollow': async (input, ctx) => {
    const user = await userNamed(ctx, input.username);
    await ctx.services.db.deleteFrom('follows').where('follower_id', '=', viewerId(ctx)!).where('followed_id', '=', user.id).execute();
    return { profile: { ...user, following: false } };
  },
} satisfies Partial<Handlers>;

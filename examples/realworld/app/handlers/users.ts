/** Registration, login, the current user and profiles. */
import { authService, normalizeLogin } from 'bindery/auth';
import { presentedToken } from 'bindery/auth/tokens';
import { NotFoundError, ValidationError } from 'bindery/errors';
import type { RequestContext } from 'bindery/http';
import { created } from 'bindery/results';
import type { Handlers } from '../../generated/handlers.js';
import { load } from '../../generated/relations.js';
import type { User } from '../../generated/types.js';
import { presentUser, viewerId } from '../present.js';

/** A new token for the user (it signs in as `Authorization: Token <token>`). */
async function issueToken(ctx: RequestContext, user: User): Promise<string> {
  return (await ctx.services.apiTokens!.create(String(user.id), { name: 'conduit', abilities: ['conduit'] })).plain;
}

/** 422 when another user has the email or username. */
async function ensureFree(ctx: RequestContext, fields: { email?: string | undefined; username?: string | undefined }, self = 0) {
  for (const [column, value] of Object.entries(fields) as ['email' | 'username', string | undefined][]) {
    if (value === undefined) continue;
    const q = ctx.services.db.selectFrom('users').select('id').where(column, '=', value).where('id', '<>', self);
    if ((await q.executeTakeFirst()) !== undefined) throw new ValidationError({ [column]: 'has already been taken' });
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
    const user = await ctx.services.db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
    return created(presentUser(user, await issueToken(ctx, user)));
  },

  // A wrong email or password: 422 on email (the same words for both), throttled.
  'users.login': async ({ user: fields }, ctx) => {
    const user = (await authService(ctx).verifyCredentials(ctx, fields.email, fields.password)) as User;
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
    const user = await ctx.services.db.updateTable('users').set(changes).where('id', '=', me.id).returningAll().executeTakeFirstOrThrow();
    return presentUser(user, presentedToken(ctx)!);
  },

  'profiles.show': async (input, ctx) => {
    const [profile] = await load.User(ctx, [await userNamed(ctx, input.username)], ['following']);
    return { profile: profile! };
  },

  'profiles.follow': async (input, ctx) => {
    const user = await userNamed(ctx, input.username);
    await ctx.services.db
      .insertInto('follows')
      .values({ follower_id: viewerId(ctx)!, followed_id: user.id })
      .onConflict((oc) => oc.columns(['follower_id', 'followed_id']).doNothing())
      .execute();
    return { profile: { ...user, following: true } };
  },

  'profiles.unfollow': async (input, ctx) => {
    const user = await userNamed(ctx, input.username);
    await ctx.services.db.deleteFrom('follows').where('follower_id', '=', viewerId(ctx)!).where('followed_id', '=', user.id).execute();
    return { profile: { ...user, following: false } };
  },
} satisfies Partial<Handlers>;

/** Registration, login, the current user and profiles. */
import { authService, normalizeLogin } from 'bindery/auth';
import { HttpError, NotFoundError, ValidationError } from 'bindery/errors';
import type { RequestContext } from 'bindery/http';
import { created } from 'bindery/results';
import type { Handlers } from '../../generated/handlers.js';
import type { User } from '../../generated/types.js';
import { callerToken, viewerId } from '../conduit.js';
import { presentUser } from '../present.js';

/** A new token for the user (it signs in as `Authorization: Token <token>`). */
async function issueToken(ctx: RequestContext, user: User): Promise<string> {
  return (await ctx.services.apiTokens!.create(String(user.id), { name: 'conduit', abilities: ['conduit'] })).plain;
}

/** 422 when another user has the email or username. */
async function ensureFree(ctx: RequestContext, fields: { email?: string | undefined; username?: string | undefined }, self = 0) {
  for (const [column, value] of Object.entries(fields) as ['email' | 'username', string | undefined][]) {
    if (value === undefined) continue;
    const q = ctx.services.db.selectFrom('users').select('id').where(column, '=', value).where('id', '<>', self);
    if ((await q.executeTakeFirst()) !== undefined) throw new ValidationError({ [column]: `${column} has already been taken` });
  }
}

const currentUser = async (ctx: RequestContext) => (await ctx.auth.user()) as User;

async function userNamed(ctx: RequestContext, username: string) {
  const user = await ctx.services.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  if (user === undefined) throw new NotFoundError(`No user is named ${username}.`);
  return user;
}

export const usersHandlers = {
  'users.register': async (input, ctx) => {
    const email = normalizeLogin(input.email);
    await ensureFree(ctx, { email, username: input.username });
    const password = await authService(ctx).hashPassword(input.password);
    const user = await ctx.services.db
      .insertInto('users')
      .values({ email, username: input.username, password })
      .returningAll()
      .executeTakeFirstOrThrow();
    return created(presentUser(user, await issueToken(ctx, user)));
  },

  'users.login': async (input, ctx) => {
    const service = authService(ctx);
    const user = (await service.users.findByLogin(input.email)) as User | null;
    if (user === null || !(await service.verifyPassword(user.password, input.password))) {
      throw new HttpError(401, 'email or password is invalid');
    }
    return presentUser(user, await issueToken(ctx, user));
  },

  'user.show': async (_input, ctx) => presentUser(await currentUser(ctx), callerToken(ctx)),

  'user.update': async (input, ctx) => {
    const me = await currentUser(ctx);
    const email = input.email === undefined ? undefined : normalizeLogin(input.email);
    await ensureFree(ctx, { email, username: input.username }, me.id);
    const password = input.password === undefined ? undefined : await authService(ctx).hashPassword(input.password);
    const changes = { email, username: input.username, password, bio: input.bio ?? undefined, image: input.image, updated_at: new Date() };
    const user = await ctx.services.db.updateTable('users').set(changes).where('id', '=', me.id).returningAll().executeTakeFirstOrThrow();
    return presentUser(user, callerToken(ctx));
  },

  'profiles.show': async (input, ctx) => {
    const user = await userNamed(ctx, input.username);
    const viewer = viewerId(ctx);
    const follows =
      viewer !== null &&
      (await ctx.services.db
        .selectFrom('follows')
        .select('id')
        .where('follower_id', '=', viewer)
        .where('followed_id', '=', user.id)
        .executeTakeFirst()) !== undefined;
    return { profile: { ...user, following: follows } };
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

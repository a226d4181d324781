/**
 * Handlers of the account's sessions and devices (docs/auth.md "Sessions
 * and devices"; schema/account-security.yaml).
 */
import type { Handlers } from '../../generated/handlers.js';
import 'bindery/auth/devices';
import { type RequestContext, requireService } from 'bindery/http';
import { noContent, page } from 'bindery/results';
import { currentUser } from '../auth/users.js';
import { answersJson, back } from './answer.js';

type SessionsHandlers = Pick<Handlers, 'sessions.index' | 'sessions.destroy' | 'sessions.others'>;

const devicesOf = (ctx: RequestContext) => requireService(ctx.services, 'devices', 'devices()');

export const sessionsHandlers = {
  'sessions.index': async (_input, ctx) => {
    const user = await currentUser(ctx);
    const devices = devicesOf(ctx);
    const sessions = await devices.list(ctx, user);
    if (answersJson(ctx)) return sessions;
    return page('user/sessions', { title: ctx.t('app.title.sessions'), user, sessions, listable: devices.listable });
  },

  'sessions.destroy': async (input, ctx) => {
    const user = await currentUser(ctx);
    await devicesOf(ctx).revoke(ctx, user, input.id);
    if (answersJson(ctx)) return noContent();
    return back(ctx, ctx.t('app.status.session_signed_out'));
  },

  'sessions.others': async (input, ctx) => {
    const user = await currentUser(ctx);
    await devicesOf(ctx).signOutOtherBrowsers(ctx, user, input.password);
    if (answersJson(ctx)) return noContent();
    return back(ctx, ctx.t('app.status.others_signed_out'));
  },
} satisfies SessionsHandlers;

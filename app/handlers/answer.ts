/**
 * How the account-security routes answer (docs/auth.md "JSON and forms"):
 * JSON clients get Fortify's JSON answers, browsers and forms go back to
 * the page they came from with a status message.
 */
import { answersJson } from 'bindery/auth/confirm';
import type { RequestContext } from 'bindery/http';
import { json, redirect, type JsonResult, type RedirectResult } from 'bindery/results';
import { backTarget } from 'bindery/session';

/**
 * JSON clients: `body` with `status` (Fortify answers `""` with 200 for most
 * changes); browsers: 303 back to the form's page (or `to`) with `message`
 * flashed as the status.
 */
export function done(
  ctx: RequestContext,
  message: string,
  options: { body?: string; status?: number; to?: string } = {},
): JsonResult<string> | RedirectResult {
  if (answersJson(ctx)) return json(options.body ?? '', options.status ?? 200);
  ctx.session.flash('status', message);
  return redirect(options.to ?? backTarget(ctx.request));
}

export { answersJson };

/** Browsers: 303 back to the form's page (or `to`) with `message` flashed as the status. */
export function back(ctx: RequestContext, message: string, to?: string): RedirectResult {
  ctx.session.flash('status', message);
  return redirect(to ?? backTarget(ctx.request));
}

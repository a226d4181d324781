/**
 * Handlers of the back office's JSON API of the audit log
 * (schema/back-office.yaml; docs/audit.md "Revert"): each calls the revert
 * engine of bindery/audit with the route's confirmations and the request's
 * policy hook (every write of the revert checked against its resource's
 * policy). Admins only: the routes' `users.admin` check runs before them.
 *
 * JSON clients get 200 with the entries written, or the error's problem
 * details (404 unknown entry, 409 conflict naming the rows, 403); browsers
 * (forms) go back to the page they came from with a status message.
 */
import type { Handlers } from '../../generated/handlers.js';
import type { RevertOutcome } from '../../generated/types.js';
import type { RequestContext } from 'bindery/http';
import { HttpError } from 'bindery/errors';
import { json, type JsonResult, type RedirectResult } from 'bindery/results';
import { policyAuthorizer, revertBulk, revertEntry, revertRequest, type RevertResult } from 'bindery/audit';
import { answersJson, back } from './answer.js';

type BackOfficeHandlers = Pick<Handlers, 'backOffice.revertEntry' | 'backOffice.revertBulk' | 'backOffice.revertRequest'>;

/** The answer of a revert: JSON, or back with a status message (a refusal's message for a form). */
async function answer(ctx: RequestContext, revert: () => Promise<RevertResult>): Promise<JsonResult<RevertOutcome> | RedirectResult> {
  if (answersJson(ctx)) return json(await revert());
  try {
    const result = await revert();
    const notes = result.notes.map((n) => ` ${n.field} of ${n.resource}/${n.id} was left as it is: ${n.reason}`).join('');
    return back(ctx, `Reverted: ${result.entries.length} ${result.entries.length === 1 ? 'entry' : 'entries'} written.${notes}`);
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) return back(ctx, error.message);
    throw error;
  }
}

export const backOfficeHandlers = {
  'backOffice.revertEntry': (input, ctx) =>
    answer(ctx, () => revertEntry(ctx.services.audit, input.entry, { confirm: input.confirm, authorize: policyAuthorizer(ctx) })),

  'backOffice.revertBulk': (input, ctx) =>
    answer(ctx, () => revertBulk(ctx.services.audit, input.bulk, { confirm: input.confirm, authorize: policyAuthorizer(ctx) })),

  'backOffice.revertRequest': (input, ctx) =>
    answer(ctx, () => revertRequest(ctx.services.audit, input.requestId, { confirm: input.confirm, authorize: policyAuthorizer(ctx) })),
} satisfies BackOfficeHandlers;

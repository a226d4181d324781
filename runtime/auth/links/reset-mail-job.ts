/**
 * The password-reset mail as a job (docs/auth.md "Password reset"): `POST
 * /forgot-password` queues one job for every address it is given, known or
 * not, and the worker looks the account up and mails the link. The request
 * does the same work either way (one insert), so its timing tells nobody
 * whether an account exists.
 */
import { defineJob, type JobDefinition } from '../../jobs/define-job.js';
import type { AccountLinks } from './account-links.js';

/** What the job carries: the login as the user typed it (normalized). */
export interface ResetMailPayload {
  readonly login: string;
}

/** The job's name. */
export const RESET_MAIL_JOB = 'links:send_password_reset';

/**
 * The job that mails a reset link to the account with `login`, if there is
 * one. A mail failure (`BINDERY_MAIL_FAILED`) fails the attempt, retried with
 * backoff up to 5 attempts in all (the link is made when the mail is sent,
 * so a late mail still carries a fresh link).
 * @param links the app's account links (read when the job runs).
 */
export function resetMailJob(links: () => AccountLinks): JobDefinition<ResetMailPayload> {
  return defineJob<ResetMailPayload>({
    name: RESET_MAIL_JOB,
    description: 'Mail a password reset link to the account with this login, if there is one (POST /forgot-password).',
    maxAttempts: 5,
    payload(raw) {
      const login = (raw as Partial<ResetMailPayload> | null)?.login;
      if (typeof login !== 'string' || login === '' || login.length > 1000)
        throw new Error('login must be a non-empty string of at most 1000 characters');
      return { login };
    },
    async handle({ login }) {
      await links().sendResetTo(login);
    },
  });
}

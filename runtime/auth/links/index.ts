/**
 * Email verification and password reset links (docs/spec.md 2.3, 3, 5.6;
 * docs/mail.md): the `links()` setup step, `ctx.services.accountLinks`, and
 * {@link sendVerificationLink} for the register handler.
 */
export { links, type LinksStepOptions } from './links-step.js';
export { sendVerificationLink, accountLinksOf } from './send-verification-link.js';
export { AccountLinks, RESET_LINK_INVALID, VERIFY_LINK_INVALID, type AccountLinksOptions, type VerifyOutcome } from './account-links.js';
export { LinkTokens, RESET_PURPOSE, VERIFY_PURPOSE, type ResetClaim, type VerificationClaim } from './link-tokens.js';
export { linkSettings, MIN_LINK_TTL_MS, type LinkSettings } from './settings.js';
export type { LinkUsersTable } from './users-table.js';

/**
 * Email verification and password reset links (docs/spec.md 2.3, 3, 5.6;
 * docs/mail.md): the `links()` setup step, `ctx.services.accountLinks`, and
 * {@link sendVerificationLink} for the register handler.
 */
export { links, type LinksStepOptions } from './links-step.js';
export { sendVerificationLink, accountLinksOf } from './send-verification-link.js';
export { AccountLinks, type VerifyOutcome } from './account-links.js';

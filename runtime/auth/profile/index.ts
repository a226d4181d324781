/**
 * Profile and credentials (docs/auth.md "Profile and credentials"): the
 * `profile()` step and `ctx.services.profile`.
 */
export { profile, profileSettings, type ProfileStepOptions } from './profile-step.js';
export {
  AccountProfile,
  EMAIL_TAKEN,
  EMAIL_CHANGE_LINK_INVALID,
  EMAIL_CHANGE_LIMIT,
  type AccountProfileOptions,
  type ProfileUpdate,
} from './account-profile.js';
export { EMAIL_CHANGE_PURPOSE, sealEmailChange, openEmailChange, type EmailChangeClaim } from './email-change-token.js';

/**
 * Profile and credentials (docs/auth.md "Profile and credentials"): the
 * `profile()` step and `ctx.services.profile`.
 */
export { profile, type ProfileStepOptions } from './profile-step.js';
export {
  AccountProfile,
  type ProfileUpdate,
} from './account-profile.js';

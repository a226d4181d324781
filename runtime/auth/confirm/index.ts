/**
 * Password confirmation, "sudo mode" (docs/auth.md "Password confirmation"):
 * the `passwordConfirmation()` step behind the YAML key `confirmPassword`.
 */
export { passwordConfirmation, confirmSettings, type PasswordConfirmationStepOptions } from './confirm-step.js';
export { PasswordConfirmation, CONFIRMED_AT_KEY, CONFIRM_INTENDED_KEY, type PasswordConfirmationOptions } from './password-confirmation.js';
export { confirmPasswordMiddleware, CONFIRMATION_REQUIRED } from './confirm-middleware.js';
export { PASSWORD_INCORRECT, checkPassword, type PasswordCheckParts } from '../account/password-check.js';
export { recordAccountEvent, type AccountEvent } from '../account/account-audit.js';
export { answersJson } from '../account/client-answer.js';

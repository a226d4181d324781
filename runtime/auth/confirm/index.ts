/**
 * Password confirmation, "sudo mode" (docs/auth.md "Password confirmation"):
 * the `passwordConfirmation()` step behind the YAML key `confirmPassword`.
 */
export { passwordConfirmation, type PasswordConfirmationStepOptions } from './confirm-step.js';
export { PasswordConfirmation } from './password-confirmation.js';
export { confirmPasswordMiddleware } from './confirm-middleware.js';
export { answersJson } from '../account/client-answer.js';

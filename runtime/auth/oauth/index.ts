/**
 * External-provider sign-in (docs/spec.md 4.1; docs/oauth.md): the `oauth()`
 * setup step and `ctx.services.externalSignIn`.
 */
export { oauth, type OAuthStepOptions } from './oauth-step.js';
export { ExternalSignIn, type CompletedSignIn } from './external-sign-in.js';
export { OAuthProvider, type OAuthProviderOptions } from './oauth-provider.js';

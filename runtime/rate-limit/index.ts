/**
 * Fixed-window rate limits counted in the cache (docs/spec.md 8; docs/mail.md
 * "The forgot-password limit").
 */
export { hitRateLimit, rateLimitedError, rateLimitHeaders, type RateLimit, type RateLimitState } from './rate-limiter.js';

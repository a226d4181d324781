/**
 * Reaching a service that a setup step provides (`ctx.services.<name>`),
 * with one error, `BINDERY_SERVICE_NOT_SET_UP`, when the app's setup list
 * lacks the step (docs/errors.md).
 */
import { codedErrorClass } from '../errors/coded-error.js';
import type { Services } from './context.js';

/** A service was used by an app whose setup list lacks the step providing it (`BINDERY_SERVICE_NOT_SET_UP`). */
export const ServiceNotSetUpError = codedErrorClass('ServiceNotSetUpError', 'BINDERY_SERVICE_NOT_SET_UP');
/** An instance of {@link ServiceNotSetUpError}. */
export type ServiceNotSetUpError = InstanceType<typeof ServiceNotSetUpError>;

/**
 * `services[name]`, or a {@link ServiceNotSetUpError} naming the setup calls to add.
 * @param services the app's services (`ctx.services`, a job's or scheduled task's `services`, a booted app's `services`).
 * @param name the service, e.g. `auth`, `accountLinks`, `audit`.
 * @param setup the setup calls that provide it, for the message, e.g. `cache(), session() and auth({ users })`.
 * @param what who needs it, for the message (default `ctx.services.<name>`), e.g. `bindery audit:prune`.
 * @throws {ServiceNotSetUpError} when the service is absent.
 * @example const auth = requireService(ctx.services, 'auth', 'cache(), session() and auth({ users })');
 */
export function requireService<K extends keyof Services & string>(
  services: Services | Readonly<Record<string, unknown>>,
  name: K,
  setup: string,
  what?: string,
): NonNullable<Services[K]> {
  const service = (services as Services)[name];
  if (service === undefined || service === null) {
    throw ServiceNotSetUpError.from({ what: what ?? `ctx.services.${name}`, setup });
  }
  return service as NonNullable<Services[K]>;
}

/**
 * The audit log a command works with: `services.audit` of the booted app.
 */
import { ServiceNotSetUpError } from '../../http/require-service.js';
import { AuditLog } from '../audit-log.js';

/**
 * @throws {ServiceNotSetUpError} `BINDERY_SERVICE_NOT_SET_UP` when the app's setup list has no `audit()`.
 */
export function auditLogOf(services: Readonly<Record<string, unknown>>): AuditLog {
  const log = services.audit;
  if (!(log instanceof AuditLog))
    throw new ServiceNotSetUpError(
      'This command needs the audit log (services.audit): add audit() to the setup list of app/main.ts (docs/errors.md).',
    );
  return log;
}

/**
 * The audit log a command works with: `services.audit` of the booted app.
 */
import { SetupError } from '../../app/errors.js';
import { AuditLog } from '../audit-log.js';

/**
 * @throws {SetupError} when the app's setup list has no `audit()`.
 */
export function auditLogOf(services: Readonly<Record<string, unknown>>): AuditLog {
  const log = services.audit;
  if (!(log instanceof AuditLog)) throw new SetupError('This command needs the audit log: add audit() to the setup list of app/main.ts.');
  return log;
}

/** Internals the audit tests reach into. */
export { AuditLog } from '../../../runtime/audit/index.js';
export { resolveModel as resolveModelForTest } from '../../../runtime/audit/tracked-config.js';

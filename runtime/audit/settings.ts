/**
 * Settings of the audit log (docs/spec.md 6.1 rules 10–11, 8 `AUDIT_BULK_MAX_VALUES`;
 * docs/audit.md "Settings"). Loaded with the core settings by the `audit()`
 * step, so a bad value stops the boot naming the setting and the allowed values.
 */
import { defineSettings } from '../config/define-settings.js';
import { booleanSetting, enumSetting, integerSetting } from '../config/parsers.js';

/** Values of `AUDIT_IP`. */
export const AUDIT_IP_MODES = ['off', 'masked', 'full'] as const;
/** How much of the client's IP address an entry keeps. */
export type AuditIpMode = (typeof AUDIT_IP_MODES)[number];

/** The audit settings declaration. */
export const auditSettings = defineSettings({
  AUDIT_IP: {
    description: 'Client IP address kept in audit entries: off, masked (IPv4 last octet zeroed, IPv6 cut to its /48) or full.',
    parser: enumSetting(AUDIT_IP_MODES),
    default: 'off',
  },
  AUDIT_BULK_MAX_VALUES: {
    description: 'Rows whose values before (and after) a bulk write keeps in its audit entry; beyond it only the keys are kept.',
    parser: integerSetting({ min: 0, max: 1_000_000 }),
    default: '10000',
  },
  AUDIT_RETENTION_DAYS: {
    description: 'Audit entries older than this many days are deleted by "bindery audit:prune"; 0 keeps every entry.',
    parser: integerSetting({ min: 0, max: 36_500 }),
    default: '0',
  },
  AUDIT_DENIALS: {
    description:
      'Record every request a policy refused (401, 403, 404) as an audit entry "authorization.denied" (needs authorization() after audit()); logged either way.',
    parser: booleanSetting(),
    default: 'false',
  },
});

/** The typed audit settings. */
export interface AuditSettings {
  readonly AUDIT_IP: AuditIpMode;
  readonly AUDIT_BULK_MAX_VALUES: number;
  readonly AUDIT_RETENTION_DAYS: number;
  readonly AUDIT_DENIALS: boolean;
}

/** The defaults, for audit logs made outside an app (tests, scripts). */
export const DEFAULT_AUDIT_SETTINGS: AuditSettings = Object.freeze({
  AUDIT_IP: 'off',
  AUDIT_BULK_MAX_VALUES: 10_000,
  AUDIT_RETENTION_DAYS: 0,
  AUDIT_DENIALS: false,
});

/**
 * HTTP status phrases for problem details `title` and error pages (SPEC.md 2.8).
 */
import { STATUS_CODES } from 'node:http';

/**
 * The reason phrase of `status` ("Unprocessable Entity"); 499 is "Client Closed Request".
 * Never throws; an unknown status gives "Error".
 */
export function statusPhrase(status: number): string {
  if (status === 499) return 'Client Closed Request';
  return STATUS_CODES[status] ?? 'Error';
}

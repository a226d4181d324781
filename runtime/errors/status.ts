/**
 * HTTP status phrases for problem details `title` and error pages (docs/spec.md 2.8).
 */
import { STATUS_CODES } from 'node:http';

/**
 * Phrases RFC 9110 renamed (Node's table still has the RFC 7231 ones), and
 * 499, which no RFC names (nginx's "Client Closed Request").
 */
const RFC_9110: Readonly<Record<number, string>> = {
  413: 'Content Too Large',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  499: 'Client Closed Request',
};

/**
 * The reason phrase of `status` per RFC 9110 ("Unprocessable Content" for 422,
 * "Content Too Large" for 413); 499 is "Client Closed Request".
 * Never throws; an unknown status gives "Error".
 */
export function statusPhrase(status: number): string {
  return RFC_9110[status] ?? STATUS_CODES[status] ?? 'Error';
}

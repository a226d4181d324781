/**
 * Connection URLs for messages: the password replaced by `***`.
 */

/**
 * @param url a `postgres://user:password@host:port/db` URL (or anything).
 * @returns the URL without its password; unparsable text is returned as `(invalid URL)`.
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

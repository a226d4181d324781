/**
 * Addresses in log lines (docs/mail.md "Log lines"): logs at info level
 * carry no full address, only enough to tell mails apart.
 */

/**
 * An address masked for a log line: the first character of the local part,
 * `***`, then the domain — `jane@example.com` → `j***@example.com`. A display
 * name (`Jane <jane@example.com>`) is dropped; text without `@` becomes `***`.
 * @example log.info({ to: recipients.map(maskEmail) }, 'mail sent');
 */
export function maskEmail(address: string): string {
  const bare = /<([^<>]*)>\s*$/.exec(address)?.[1] ?? address;
  const text = bare.trim();
  const at = text.lastIndexOf('@');
  if (at < 1) return '***';
  return `${text[0]}***${text.slice(at)}`;
}

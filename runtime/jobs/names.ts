/**
 * Names of jobs, scheduled tasks, events and listeners: `<namespace>:<name>`
 * (docs/jobs.md "Names"; docs/spec.md 9 "each in the plugin's namespace").
 *
 * The namespace is the app (`app:send_welcome`), a framework concept
 * (`audit:prune`, `session:login_succeeded`) or a plugin's name
 * (`mailprovider:webhook`). Jobs, scheduled tasks and asynchronous listeners
 * share the queue's task names, so one name is one thing.
 */

/** `<namespace>:<name>`: a lower-case namespace, a colon, then lower-case letters, digits, `_`, `-`, `.` or `:`. */
export const NAMESPACED_NAME = /^[a-z][a-z0-9_]*:[a-z0-9][a-z0-9_.:-]*$/;

/** The namespace of a `<namespace>:<name>` name (the text before the first colon). */
export function namespaceOf(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? '' : name.slice(0, colon);
}

/** True when `name` is `<namespace>:<name>`. */
export function isNamespacedName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= 200 && NAMESPACED_NAME.test(name);
}

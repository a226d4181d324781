/**
 * How the CLI prints a failure (docs/cli.md "Errors and exit codes"):
 * the message (settings errors name each setting), the code for coded
 * errors, and the stack and causes only with `APP_DEBUG=true`.
 */
import { isCodedError } from '../errors/coded-error.js';
import { docsOf } from '../errors/codes.js';

/**
 * @param error anything thrown.
 * @param debug print stacks and the cause chain.
 * @returns text ending with a newline.
 */
export function formatCliError(error: unknown, debug: boolean): string {
  if (!(error instanceof Error)) return `Error: ${String(error)}\n`;
  let text = `Error: ${error.message}\n`;
  if (isCodedError(error)) text += `(${error.code}; ${docsOf(error.code)} says what to do)\n`;
  if (debug) {
    text += `\n${error.stack ?? ''}\n`;
    let cause = error.cause;
    while (cause !== undefined) {
      text += `Caused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`;
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  } else if (!isCodedError(error)) {
    text += 'Set APP_DEBUG=true to see the stack trace.\n';
  }
  return text;
}

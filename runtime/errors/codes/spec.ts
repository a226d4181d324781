/** The shape of one registered error code (runtime/errors/codes.ts, docs/errors.md). */
export interface ErrorCodeSpec {
  /** HTTP status when the error reaches a client; absent for boot/CLI/generator errors. */
  readonly status?: number;
  /** One-line summary (the problem-details `title` comes from the status). */
  readonly summary: string;
  /**
   * Optional message template, for codes whose message has a fixed form:
   * `{name}` placeholders filled by {@link errorMessage} (and `codedError`).
   * Codes whose messages vary in shape keep hand-built messages. Write it as
   * one string literal (no `+`): its placeholders are then checked at
   * compile time.
   */
  readonly message?: string;
}

/**
 * The pieces of `bindery dev`'s output (docs/cli.md "dev — the development loop"):
 * tsc's plain diagnostics printed as file:line:column, and the restart line
 * saying where the time went. The loop itself: dev.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { formatTscOutput } from '../../../runtime/cli/dev/type-check.js';
import { restartLine } from '../../../runtime/cli/commands/dev.js';

describe('bindery dev | type check output', () => {
  it('prints each diagnostic as file:line:column with its code, keeps continuation lines, counts errors', () => {
    const tsc = [
      'app/handlers/notes.ts(24,51): error TS2345: Argument of type \'"titel"\' is not assignable to parameter of type \'"title"\'.',
      '  Type \'"titel"\' is not assignable to type \'"title"\'.',
      "generated/types.ts(3,1): error TS2304: Cannot find name 'Foo'.",
      '',
      'Found 2 errors in 2 files.',
      '',
    ].join('\n');
    expect(formatTscOutput(tsc)).toEqual({
      text: [
        'app/handlers/notes.ts:24:51: error TS2345: Argument of type \'"titel"\' is not assignable to parameter of type \'"title"\'.',
        '  Type \'"titel"\' is not assignable to type \'"title"\'.',
        "generated/types.ts:3:1: error TS2304: Cannot find name 'Foo'.",
        '',
      ].join('\n'),
      errors: 2,
    });
  });

  it('keeps an error without a position (a bad tsconfig.json), and says nothing for a clean check', () => {
    expect(formatTscOutput("error TS5023: Unknown compiler option 'stric'.\n")).toEqual({
      text: "error TS5023: Unknown compiler option 'stric'.\n",
      errors: 1,
    });
    expect(formatTscOutput('')).toEqual({ text: '', errors: 0 });
  });
});

describe('bindery dev | the restart line', () => {
  it('names where the time went, leaving out what took none', () => {
    expect(restartLine(1063, { regenerateMs: 423, standbyMs: 0, setupMs: 540, switchMs: 73 })).toBe(
      'Restarted in 1063 ms (regenerate 423 ms, app setup 540 ms, switch-over 73 ms)',
    );
    expect(restartLine(3214, { regenerateMs: 0, standbyMs: 2133, setupMs: 739, switchMs: 184 })).toBe(
      'Restarted in 3214 ms (waiting for the standby to load bindery 2133 ms, app setup 739 ms, switch-over 184 ms)',
    );
  });
});

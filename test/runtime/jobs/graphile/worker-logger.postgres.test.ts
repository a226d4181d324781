import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { workerLogger } from '../../../../runtime/jobs/graphile/worker-logger.js';

/** A pino logger writing JSON lines into `lines`. */
function capture(): { lines: Array<Record<string, unknown>>; log: pino.Logger } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: pino({ level: 'debug' }, stream) };
}

describe('workerLogger', () => {
  it("keeps a job row's identity and drops its payload", () => {
    const { lines, log } = capture();
    const job = {
      id: '7',
      task_identifier: 'mailprovider:webhook',
      attempts: 1,
      max_attempts: 25,
      payload: { email: 'ada@example.com' },
      locked_by: 'worker-1',
    };
    workerLogger(log)
      .scope({ workerId: 'w1' })
      .info('Completed task 7 with success', { job } as never);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'Completed task 7 with success',
      job: { id: '7', task_identifier: 'mailprovider:webhook', attempts: 1, max_attempts: 25 },
    });
    expect(JSON.stringify(lines[0])).not.toContain('ada@example.com');
    expect(lines[0]!.job).not.toHaveProperty('payload');
  });

  it('maps the levels: warning → warn, error → error, debug → debug', () => {
    const { lines, log } = capture();
    const logger = workerLogger(log);
    logger.warn('w');
    logger.error('e');
    logger.debug('d');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'w'],
      [50, 'e'],
      [20, 'd'],
    ]);
  });
});

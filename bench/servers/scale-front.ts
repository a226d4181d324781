/**
 * The round-robin front of the scale-out benchmark: Node's `cluster` module.
 * The primary process listens on one port and hands each new connection to
 * the next of `BENCH_INSTANCES` workers in turn (`SCHED_RR`); each worker is
 * a whole `bindery serve` process (bin/bindery.mjs), as in production.
 * Prints `listening <port>` once every instance listens; SIGTERM stops the
 * instances gracefully, then the front.
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const instances = Number(process.env.BENCH_INSTANCES ?? 1);
const BIN = fileURLToPath(new URL('../../bin/bindery.mjs', import.meta.url));

/** A free loopback port: every worker must be told the same one. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  return typeof address === 'object' && address ? address.port : 0;
}

cluster.schedulingPolicy = cluster.SCHED_RR;
const port = await freePort();
cluster.setupPrimary({ exec: BIN, args: ['serve'] });
const workers: Worker[] = [];
for (let i = 0; i < instances; i++) workers.push(cluster.fork({ HTTP_ADDR: `127.0.0.1:${port}` }));
await Promise.all(
  workers.map(
    (w) =>
      new Promise<void>((resolve, reject) => {
        w.once('listening', () => resolve());
        w.once('exit', (code) => reject(new Error(`instance ${w.id} exited with code ${code} before listening`)));
      }),
  ),
);
process.stdout.write(`listening ${port}\n`);
process.on('SIGTERM', async () => {
  await Promise.all(
    workers.map(async (w) => {
      if (w.isDead()) return;
      w.process.kill('SIGTERM');
      await once(w, 'exit');
    }),
  );
  process.exit(0);
});

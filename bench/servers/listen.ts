/**
 * Shared start-up of the bench servers: listen, then print `listening <port>`
 * on stdout so the runner knows where to send load; exit on SIGTERM.
 */
import type { Server } from 'node:http';

export async function listenForBench(server: Server, listen: () => Promise<unknown>): Promise<void> {
  await listen();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`listening ${port}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

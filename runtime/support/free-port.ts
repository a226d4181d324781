/**
 * A TCP port that is free on 127.0.0.1 right now (the OS picks it).
 *
 * There is a short window between this call and the caller binding the port;
 * callers that can, retry on "address in use".
 */
import { createServer } from 'node:net';

/**
 * Ask the OS for a free port on `host`.
 * @param host interface to probe (default `127.0.0.1`).
 * @returns the port number (1–65535).
 * @throws the listen error when the host cannot be bound.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error(`could not get a free port on ${host}`))));
    });
  });
}

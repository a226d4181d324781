/**
 * Listening on the address the settings chose (docs/boot.md "Boot
 * sequence"), and saying which setting chose it when that fails.
 */
import type { FastifyInstance } from 'fastify';
import type { ListenAddress } from '../config/parsers.js';
import { ListenError } from './errors.js';

/** `host:port` as a URL shows it (`[::1]:3000` for IPv6). */
export const hostPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Where the address came from: `HTTP_ADDR`, `PORT` (HTTP_ADDR unset), or neither (the default). */
type AddressSource = 'HTTP_ADDR' | 'PORT' | 'default';

/**
 * Listen on `address`.
 * @param given the settings given a value (`HTTP_ADDR`, `PORT`), to name the one that chose the address.
 * @param port the value of `PORT`, for the message.
 * @throws {ListenError} naming the address, the setting it came from (with its value for `PORT`), why (in use,
 *   not on this machine, permission denied) and what to change.
 */
export async function listen(
  server: FastifyInstance,
  address: ListenAddress,
  given: ReadonlySet<string>,
  port: number | undefined,
): Promise<void> {
  try {
    await server.listen({ host: address.host, port: address.port });
  } catch (error) {
    const source: AddressSource = given.has('HTTP_ADDR') ? 'HTTP_ADDR' : given.has('PORT') ? 'PORT' : 'default';
    const code = (error as NodeJS.ErrnoException).code;
    throw ListenError.from(
      {
        address: hostPort(address.host, address.port),
        setting:
          source === 'HTTP_ADDR' ? 'HTTP_ADDR' : source === 'PORT' ? `PORT=${port}, HTTP_ADDR unset` : 'HTTP_ADDR unset: the default',
        reason:
          code === 'EADDRINUSE'
            ? 'the port is in use'
            : code === 'EADDRNOTAVAIL'
              ? 'the address is not on this machine'
              : code === 'EACCES'
                ? 'permission denied'
                : (error as Error).message,
        advice: listenAdvice(code, source),
      },
      { cause: error },
    );
  }
}

/** What to change, by the failure and the setting the address came from. */
function listenAdvice(code: string | undefined, source: AddressSource): string {
  if (source === 'PORT') {
    const change = 'set PORT to a free port (or HTTP_ADDR to a host:port, which wins over PORT)';
    if (code === 'EADDRINUSE') return `Stop what listens there, or ${change}.`;
    if (code === 'EACCES') return `Ports below 1024 need privileges: ${change}.`;
    return `${change[0]!.toUpperCase()}${change.slice(1)}.`;
  }
  if (code === 'EADDRINUSE') return 'Stop what listens there, or set HTTP_ADDR to a free host:port.';
  if (code === 'EADDRNOTAVAIL') return 'Set HTTP_ADDR to an address of this machine (0.0.0.0:<port> listens on all of them).';
  if (code === 'EACCES') return 'Ports below 1024 need privileges: set HTTP_ADDR to a port from 1024 up.';
  return 'Set HTTP_ADDR to a free host:port.';
}

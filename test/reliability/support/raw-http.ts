/**
 * Raw TCP clients for the connection tests: send exactly the bytes given,
 * read everything the server writes, and note when it closes.
 */
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  readonly socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with the milliseconds from open to close when the server closes (or resets) the connection. */
  readonly closed: Promise<number>;
  /** Whether the connection is closed. */
  isClosed(): boolean;
}

/** Open a connection to `url`'s host and port and write `bytes` (if any). */
export async function openRaw(url: string, bytes?: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  const opened = Date.now();
  let data = '';
  let done = false;
  socket.on('data', (c: Buffer) => {
    data += c.toString('latin1');
  });
  const closed = new Promise<number>((resolve) => {
    socket.on('close', () => {
      done = true;
      resolve(Date.now() - opened);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  if (bytes !== undefined) socket.write(bytes);
  return { socket, received: () => data, closed, isClosed: () => done };
}

/** Status, headers and body of the first response in `raw` (header names lower case). */
export function parseResponse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, end).split('\r\n');
  const status = Number(head[0]!.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? NaN);
  const rest = raw.slice(end + 4);
  return { status, headers, body: Number.isNaN(length) ? rest : rest.slice(0, length) };
}

/** One PostgreSQL server for the test run: DATABASE_URL when set, else an embedded one in a temporary folder. */
import { startTestServer } from 'bindery/testing';

export default async function setup(): Promise<() => Promise<void>> {
  const server = await startTestServer();
  return () => server.stop();
}

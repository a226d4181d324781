/**
 * The test kit (docs/testing.md): a test database per test file on the
 * embedded PostgreSQL or `DATABASE_URL` (on a throwaway MariaDB or
 * `MARIADB_URL` with `BINDERY_TEST_ENGINE=mariadb`), the app booted in process, requests
 * by route name, signed-in browsers, API tokens, the mail outbox.
 */
export {
  bootTestKit,
  type SignInOptions,
  type SignInUser,
  type TestKit,
  type TestKitFactoryOptions,
  type TestKitOptions,
} from './test-kit.js';
export { TestPasskey } from './passkey-authenticator.js';
export { TestCaller, type TestResponse, type RequestOptions, type InputOf, type BodyOf } from './caller.js';
export { createTestDatabase, testServerUrl, type TestDatabase, type TestDatabaseOptions } from './test-database.js';
export { testEngine, type TestEngine } from './test-engine.js';
export { startTestServer, type TestServer } from './test-server.js';
export { createTestApp, type TestApp, type TestAppOptions } from '../app/test-app.js';
export { testClock, type TestClock } from './test-clock.js';

/**
 * The test kit (docs/testing.md): an app booted in process on its own test
 * database, with HTTP requests keyed by route name.
 */
export { createTestApp, type TestApp, type TestAppOptions } from '../app/test-app.js';

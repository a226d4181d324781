/**
 * Booting apps: `defineApp`, `startApp`, `createTestApp`, setup steps
 * (docs/boot.md).
 */
export { defineApp, type App, type AppDefinition } from './define-app.js';
export type { ReadinessCheck, SetupContext, SetupStep, StepRequirement } from './setup-step.js';
export { startApp, type RunningApp, type StartAppOptions } from './start-app.js';
export { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';
export { openApp, type OpenedApp } from './open-app.js';

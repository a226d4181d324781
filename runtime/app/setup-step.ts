/**
 * Setup steps: how sessions, auth, audit, jobs and plugins join an app
 * (docs/boot.md "Setup steps"; docs/spec.md 7 rule 9, 9 "Loading a plugin happens
 * last in setup").
 *
 * An app lists its steps in order (`setup: [cache(), session(), auth(), …]`).
 * Each step may declare settings (loaded with the core settings, so one error
 * lists every bad one), migration sets, the steps it needs before it, and a
 * `setup` function run at boot with a {@link SetupContext}. The contracts
 * live in app-contract.ts (with the app's, which they name).
 */
import type { SetupStep } from './app-contract.js';

export type { ReadinessCheck, SetupContext, SetupStep, StepRequirement } from './app-contract.js';

/** The message name of a step. */
export function stepCall(step: SetupStep): string {
  return step.call ?? `${step.name}()`;
}

/**
 * The back office (docs/back-office.md): the `backOffice()` setup step and
 * the types of its sections (`generated/back-office.ts`) and of the kit the
 * pages added to it use.
 */
export { backOffice, type BackOfficeOptions } from './back-office-step.js';
export type { SectionConfig, SectionField, SectionFieldType, SectionTable } from './sections.js';
export type { BackOfficeKit, BackOfficeRoutes, ViewRef } from './kit.js';
export type { HomeTable } from './handlers/home.js';

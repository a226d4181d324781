/**
 * Every handler of the reference app, by route name. Typed by the generated
 * `Handlers` contract: a route without a handler fails `tsc`.
 */
import type { Handlers } from '../../generated/handlers.js';
import { documentsHandlers } from './documents.js';
import { notesHandlers } from './notes.js';

export const handlers = {
  ...notesHandlers,
  ...documentsHandlers,
} satisfies Handlers;

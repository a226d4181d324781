/**
 * Every handler of the reference app, by route name. Typed by the generated
 * `Handlers` contract: a route without a handler fails `tsc`.
 */
import type { Handlers } from '../../generated/handlers.js';
import { accountsHandlers } from './accounts.js';
import { attachmentsHandlers } from './attachments.js';
import { avatarHandlers } from './avatar.js';
import { documentsHandlers } from './documents.js';
import { linksHandlers } from './links.js';
import { notesHandlers } from './notes.js';
import { oauthHandlers } from './oauth.js';
import { tokensHandlers } from './tokens.js';

export const handlers = {
  ...accountsHandlers,
  ...notesHandlers,
  ...documentsHandlers,
  ...linksHandlers,
  ...tokensHandlers,
  ...oauthHandlers,
  ...avatarHandlers,
  ...attachmentsHandlers,
} satisfies Handlers;

/**
 * Every handler of the reference app, by route name. Typed by the generated
 * `Handlers` contract: a route without a handler fails `tsc`.
 */
import type { Handlers } from '../../generated/handlers.js';
import { accountsHandlers } from './accounts.js';
import { attachmentsHandlers } from './attachments.js';
import { avatarHandlers } from './avatar.js';
import { backOfficeHandlers } from './back-office.js';
import { documentsHandlers } from './documents.js';
import { linksHandlers } from './links.js';
import { notesHandlers } from './notes.js';
import { oauthHandlers } from './oauth.js';
import { tokensHandlers } from './tokens.js';
import { passkeysHandlers } from './passkeys.js';
import { profileHandlers } from './profile.js';
import { sessionsHandlers } from './sessions.js';
import { twoFactorHandlers } from './two-factor.js';

export const handlers = {
  ...accountsHandlers,
  ...notesHandlers,
  ...documentsHandlers,
  ...linksHandlers,
  ...tokensHandlers,
  ...oauthHandlers,
  ...profileHandlers,
  ...sessionsHandlers,
  ...twoFactorHandlers,
  ...passkeysHandlers,
  ...avatarHandlers,
  ...attachmentsHandlers,
  ...backOfficeHandlers,
} satisfies Handlers;

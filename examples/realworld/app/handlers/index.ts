/** Every handler of the app, checked against the generated contracts. */
import type { Handlers } from '../../generated/handlers.js';
import { articlesHandlers } from './articles.js';
import { commentsHandlers } from './comments.js';
import { usersHandlers } from './users.js';

export const handlers = { ...usersHandlers, ...articlesHandlers, ...commentsHandlers } satisfies Handlers;

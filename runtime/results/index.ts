/**
 * Handler results (docs/spec.md 4.5 "Handler results"): the constructors handlers
 * return, and the code that writes them.
 */
export {
  RESULT,
  isTaggedResult,
  json,
  created,
  noContent,
  redirect,
  redirectExternal,
  redirectToRoute,
  text,
  page,
  respond,
  type ResultKind,
  type JsonResult,
  type CreatedResult,
  type NoContentResult,
  type RedirectResult,
  type TextResult,
  type PageResult,
  type Responder,
  type TaggedResult,
  type AnyRouteResult,
  type ResultFor,
} from './result.js';
export { sendResult, serializeOutput, JSON_CONTENT_TYPE, type ResultTarget, type ResponderEnv } from './responder.js';
export { UrlBuilder } from './url-builder.js';
export { isLocalPath, localPathOr, sameHostPath } from './local-path.js';

/**
 * Handler results (docs/spec.md 4.5 "Handler results"): the constructors handlers
 * return, and the code that writes them.
 */
export {
  json,
  created,
  noContent,
  redirect,
  redirectExternal,
  redirectToRoute,
  text,
  page,
  type JsonResult,
  type CreatedResult,
  type NoContentResult,
  type RedirectResult,
  type TextResult,
  type PageResult,
  type AnyRouteResult,
  type ResultFor,
} from './result.js';
export { UrlBuilder } from './url-builder.js';

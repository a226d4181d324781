/**
 * Handler results (docs/spec.md 4.5 "Handler results"): the constructors handlers
 * return, and the code that writes them; `stream` and `keysetBatches`, an
 * answer of every row written batch by batch (docs/http.md "Unbounded
 * answers"); `runList` and `runOffsetList`, the page of a list route
 * (`generated/lists.ts` calls them; docs/schema-language.md "List routes");
 * and `loadRelations`, the batch loader `generated/relations.ts` calls
 * (docs/schema-language.md "Included paths and batch loading").
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
  stream,
  type JsonResult,
  type CreatedResult,
  type NoContentResult,
  type RedirectResult,
  type TextResult,
  type PageResult,
  type StreamResult,
  type StreamEnd,
  type StreamOptions,
  type AnyRouteResult,
  type ResultFor,
} from './result.js';
export { keysetBatches, type KeysetBatchOptions } from './stream/keyset-batches.js';
export { UrlBuilder } from './url-builder.js';
export { runList, type ListPage, type ListContext, type ListScope } from './list/run-list.js';
export { runOffsetList, type OffsetPage } from './list/run-offset-list.js';
export { loadRelations, type Loaded, type LoadContext, type RelationGraph } from './list/load-relations.js';

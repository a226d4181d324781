/** Views: pages rendered with eta (docs/spec.md 4.5, 4.6; docs/pages.md). */
export type { ViewRenderer } from './view-renderer.js';
export type { PageHelpers, PageTarget } from './page-data.js';
export type { PageSession } from './page-session.js';

/**
 * The back office's pages (docs/back-office.md): a content view rendered
 * from its own folder (the back office's views, or another folder's, such
 * as the history pages'), then put in the back office's layout — the
 * navigation of sections, the status message, the errors summary. Views
 * are eta templates; values are HTML-escaped by `<%= %>`.
 */
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Translate } from '../i18n/translator.js';
import type { ViewRenderer } from '../views/view-renderer.js';
import { withEnglishFallback } from './words.js';

/** The folder of the back office's own views. */
export const BACK_OFFICE_VIEWS = fileURLToPath(new URL('./views/', import.meta.url));

/** What the layout shows around every page. */
export interface LayoutData {
  /** The back office's URL prefix (`/admin`). */
  readonly prefix: string;
  /** The navigation: each section's label and URL. */
  readonly nav: readonly { readonly label: string; readonly href: string }[];
  /** The stylesheet's URL (served by the back office itself). */
  readonly stylesheet: string;
}

/**
 * A renderer of `<dir>/<view>.eta` inside the layout: the content view gets
 * `it` (the page helpers and the handler's data, plus `layout` data); the
 * layout gets the same `it` with `body`, the content's HTML. The views word
 * their chrome with `it.t('backoffice.…')` in the request's locale; an app
 * without `i18n()` gets bindery's English catalog instead (docs/i18n.md).
 * @param dir the content views' folder (absolute).
 * @param cache keep compiled templates.
 */
export function layoutRenderer(dir: string, layout: LayoutData, cache = true): ViewRenderer {
  const content = new Eta({ views: dir, cache, autoEscape: true });
  const frame = dir === BACK_OFFICE_VIEWS ? content : new Eta({ views: BACK_OFFICE_VIEWS, cache, autoEscape: true });
  return {
    async render(view, data) {
      const it = {
        ...data,
        t: withEnglishFallback(data.t as Translate | undefined),
        prefix: layout.prefix,
        nav: layout.nav,
        stylesheet: layout.stylesheet,
      };
      const body = await content.renderAsync(view, it);
      return frame.renderAsync('layout', { ...it, body });
    },
  };
}

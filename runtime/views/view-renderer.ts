/**
 * Pages rendered from eta views (docs/spec.md 4.5: "Pages are rendered into a
 * buffer and written only when rendering has succeeded").
 */
import { Eta } from 'eta';

/** Renders views of the app's views folder into strings. */
export interface ViewRenderer {
  /**
   * Render `<viewsDir>/<view>.eta` with `data` (templates read it as `it`).
   * Values are HTML-escaped by `<%= %>`; `<%~ %>` writes raw HTML.
   * @returns the whole page; nothing is written anywhere.
   * @throws the template's error (missing file, syntax error, runtime error).
   */
  render(view: string, data: Readonly<Record<string, unknown>>): Promise<string>;
}

/**
 * A renderer over `viewsDir` (absolute path).
 * @param options.cache keep compiled templates (true outside development, so edited views show at once in development).
 */
export function createViewRenderer(viewsDir: string, options: { readonly cache: boolean }): ViewRenderer {
  const eta = new Eta({ views: viewsDir, cache: options.cache, autoEscape: true });
  return {
    render: (view, data) => eta.renderAsync(view, data as object),
  };
}

/**
 * HTML escaping and the shared frame of error pages.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for HTML content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
main{max-width:60rem;margin:3rem auto;padding:0 1.5rem}
h1{font-size:1.6rem;margin:0 0 .5rem}h2{font-size:1.1rem;margin:2rem 0 .5rem}
p.status{color:#656d76;margin:0}
ul.errors{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.75rem 2rem}
pre{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:1rem;overflow:auto;font-size:.85rem}
table{border-collapse:collapse;background:#fff;font-size:.85rem}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
footer{color:#656d76;font-size:.8rem;margin-top:2rem}`;

/** A complete, self-contained HTML document (inline style, no scripts, no external resources). `body` is trusted HTML. */
export function htmlDocument(title: string, body: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The inline style of error pages: the default Content-Security-Policy allows it by its hash (runtime/config/content-security-policy.ts). */
export const ERROR_PAGE_STYLE: string = STYLE;

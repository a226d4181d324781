/** Views: pages rendered with eta (SPEC.md 4.5). */
export { createViewRenderer, type ViewRenderer } from './view-renderer.js';

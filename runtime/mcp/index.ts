/**
 * Agent access over the Model Context Protocol (docs/mcp.md): the `mcp()`
 * setup step, whose tools are the routes with `mcp: true`.
 */
export { mcp, PROTECTED_RESOURCE_PATH, type McpOptions } from './mcp-step.js';
export { DRY_RUN_META } from './tool-call.js';
export type { DryRunEntry } from './dry-run.js';

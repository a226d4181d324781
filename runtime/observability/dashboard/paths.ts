/** Where the development dashboard lives (docs/observability.md "The development dashboard"). */
export const DASHBOARD_PATH = '/_bindery';

/**
 * Import-boundary rules: the layering described in ARCHITECTURE.md#layers.
 * Run with `npm run check:layers` (part of `npm run check`).
 *
 * Runtime folders are ordered bottom to top in LAYERS; a module may import
 * its own folder, folders of its own layer, and lower layers, never a higher
 * one. Setup steps (`*-step.ts`) and CLI commands (`commands/`) are wiring:
 * they sit above `app` whatever folder they live in, since they implement
 * the app's setup and command contracts.
 */
const LAYERS = [
  ['errors'],
  ['support'],
  ['context', 'config', 'i18n'],
  ['crypto', 'db', 'cache', 'views', 'rate-limit', 'storage'],
  ['routing', 'authorization'],
  ['binding'],
  ['validation'],
  ['results'],
  ['http'],
  ['session'],
  ['app'],
  ['jobs', 'mail'],
  ['events', 'schedule'],
  ['auth', 'audit', 'assets'],
  // observability reads jobs, mail, views and the HTTP server's hooks; nothing below imports it (the
  // lower folders declare hooks it implements: ARCHITECTURE.md#layers "Observation goes up through hooks").
  ['csrf', 'observability', 'mcp'],
  ['plugins'],
  ['testing', 'cli'],
];

/** Folders of the runtime that the generator may read: the shared contracts. */
const GENERATOR_MAY_IMPORT = ['errors', 'support', 'routing', 'validation', 'results'];
/**
 * Single runtime files the generator may read: contracts that live with their runtime code (the factory plan
 * types; bindery's column types) and the engines' pure type files, which the migration dialects write DDL with.
 */
const GENERATOR_MAY_IMPORT_FILES = [
  '^runtime/db/factories\\.ts$',
  '^runtime/db/column-type\\.ts$',
  // The message catalogs, for the check of the schema's messages: keys (docs/i18n.md "Checks").
  '^runtime/i18n/catalog\\.ts$',
  '^runtime/db/engines/[a-z]+/column-types\\.ts$',
];

/**
 * The arrows that break the rules on purpose, each explained in
 * ARCHITECTURE.md#justified-exceptions. Add to this list only with a reason there.
 */
const JUSTIFIED = [
  // The request context implements the `ctx.session` slot the session folder declares.
  { from: '^runtime/http/request-context\\.ts$', to: '^runtime/session/session\\.ts$' },
];

const WIRING = '(-step\\.ts$|/commands/)';
const folders = (list) => `^runtime/(${list.join('|')})/`;

const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.join('+')}`,
  comment: `${layer.join(', ')} may not import a higher layer: ${LAYERS.slice(index + 1)
    .flat()
    .join(', ')} (ARCHITECTURE.md#layers)`,
  severity: 'error',
  from: { path: folders(layer), pathNot: WIRING },
  to: { path: folders(LAYERS.slice(index + 1).flat()) },
}));

/** The layer rules, each without the justified arrows that start in its layer. */
function withExceptions(rule) {
  const exceptions = JUSTIFIED.filter((j) => new RegExp(rule.from.path).test(j.from.replace(/^\^|\\|\$$/g, '')));
  if (exceptions.length === 0) return rule;
  // dependency-cruiser has no per-pair exception: split the rule so the excepted `from` files get their own `to` filter.
  const fromNot = exceptions.map((j) => j.from);
  return [
    { ...rule, from: { ...rule.from, pathNot: [rule.from.pathNot, ...fromNot] } },
    ...exceptions.map((j) => ({ ...rule, name: `${rule.name}-except`, from: { path: j.from }, to: { ...rule.to, pathNot: j.to } })),
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules may not import each other in a cycle, types included (ARCHITECTURE.md#layers).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'generator-reads-contracts-only',
      comment: `The generator imports only the runtime's shared contracts (${GENERATOR_MAY_IMPORT.join(', ')}).`,
      severity: 'error',
      from: { path: '^generator/' },
      to: { path: '^runtime/', pathNot: [folders(GENERATOR_MAY_IMPORT), ...GENERATOR_MAY_IMPORT_FILES] },
    },
    {
      name: 'runtime-runs-the-generator-only-from-the-cli',
      comment: 'Only the CLI and plugin lifecycle commands run the generator.',
      severity: 'error',
      from: { path: '^runtime/', pathNot: '^runtime/(cli|plugins/lifecycle)/' },
      to: { path: '^generator/' },
    },
    {
      name: 'wiring-below-the-cli',
      comment: 'Setup steps and commands implement contracts of app and cli; they never import the CLI entry or its registry.',
      severity: 'error',
      from: { path: `^runtime/(?!cli/).*${WIRING}` },
      to: { path: '^runtime/(cli|testing)/' },
    },
    {
      name: 'framework-not-from-app',
      comment: 'runtime/ and generator/ never import the reference app, generated code or plugins.',
      severity: 'error',
      from: { path: '^(runtime|generator)/' },
      to: { path: '^(app|generated|plugins)/' },
    },
    ...layerRules.flatMap(withExceptions),
  ],
  options: {
    // TypeScript 7 has no compiler API, so the sources are parsed with swc.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|generated)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.mjs', '.js'],
      conditionNames: ['bindery-source', 'import', 'default'],
    },
  },
};

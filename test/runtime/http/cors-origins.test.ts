/** `withCorsOrigins`: the `CORS_ORIGINS` setting applied to a route table (docs/http.md "CORS"). */
import { describe, expect, it } from 'vitest';
import { routes as generated } from '../../../generated/routes.js';
import { withCorsOrigins } from '../../../runtime/http/cors.js';
import type { RouteTable } from '../../../runtime/routing/route-table.js';

const routes: RouteTable = generated;
const corsOf = (table: RouteTable, name: string) => table.find((r) => r.name === name)?.cors;

describe('withCorsOrigins', () => {
  it('replaces the origins of every route of a CORS group only, keeping its other options; unset leaves the table as it is', () => {
    expect(withCorsOrigins(routes, undefined)).toBe(routes);
    const table = withCorsOrigins(routes, ['https://app.example.com']);
    const withCors = routes.filter((r) => r.cors !== undefined);
    expect(withCors.length).toBeGreaterThan(0);
    for (const route of withCors) {
      expect(corsOf(table, route.name), route.name).toEqual({ ...route.cors, origins: ['https://app.example.com'] });
    }
    for (const route of routes.filter((r) => r.cors === undefined)) expect(corsOf(table, route.name), route.name).toBeUndefined();
    expect(routes.find((r) => r.cors !== undefined)?.cors?.origins).toEqual(['http://localhost:5173']);
  });

  it('none leaves a CORS group no origin; * is refused when a group allows credentials', () => {
    const none = withCorsOrigins(routes, []);
    expect(none.filter((r) => r.cors !== undefined).every((r) => r.cors!.origins.length === 0)).toBe(true);
    expect(() => withCorsOrigins(routes, ['*'])).toThrow(/CORS_ORIGINS="\*": the group member declares cors with credentials: true/);
    const noCredentials = routes.filter((r) => r.cors?.credentials !== true);
    expect(withCorsOrigins(noCredentials, ['*']).find((r) => r.cors !== undefined)?.cors?.origins).toEqual(['*']);
  });
});

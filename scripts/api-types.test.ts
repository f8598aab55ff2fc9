import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTE_TYPES_FILE, WEB_API_TYPES_FILE, openApiDocument, routeTypes, webApiTypes } from './api-types.js';

describe('the API types generated from the OpenAPI document', () => {
  it('are the ones the route schemas give today (`make api-types` rewrites them)', async () => {
    const doc = await openApiDocument();
    expect(
      readFileSync(WEB_API_TYPES_FILE, 'utf8') === (await webApiTypes(doc)),
      'web/src/api-types.generated.ts is stale: run make api-types',
    ).toBe(true);
    expect(
      readFileSync(ROUTE_TYPES_FILE, 'utf8') === (await routeTypes(doc)),
      'api/contract/route-types.generated.ts is stale: run make api-types',
    ).toBe(true);
  }, 120_000);
});

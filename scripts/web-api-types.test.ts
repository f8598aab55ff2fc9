import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEB_API_TYPES_FILE, webApiTypes } from './web-api-types.js';

describe('the web screen API types', () => {
  it('are the ones the OpenAPI document gives today (`make web-api-types` rewrites them)', async () => {
    expect(
      readFileSync(WEB_API_TYPES_FILE, 'utf8') === (await webApiTypes()),
      'web/src/api-types.generated.ts is stale: run make web-api-types',
    ).toBe(true);
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { requireFeatureOf, requireTierFor } from './access.js';

/** The refusal, as REST (403 feature_required) and MCP (the tool error's text) show it. */
function refusal(check: () => void): [string, string] | null {
  try {
    check();
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return [err.code, err.message];
  }
}

describe('the access checks every interface asks', () => {
  it('refuses a tier below a rule in the words each interface has always used', () => {
    expect(refusal(() => requireTierFor('hobby', 'closingLines'))).toEqual([
      'feature_required',
      'Closing lines needs the pro tier or higher; this key is hobby',
    ]);
    expect(refusal(() => requireTierFor('pro', 'closingHistory'))?.[1]).toBe(
      'Historical closing lines needs the sharp tier or higher; this key is pro',
    );
    expect(refusal(() => requireTierFor('free', 'clvHistory'))?.[1]).toBe(
      'Closing-line value history needs the sharp tier or higher; this key is free',
    );
    expect(refusal(() => requireTierFor('hobby', 'futuresTools'))?.[1]).toBe(
      'The futures tools need the pro tier or higher; this key is hobby',
    );
  });
  it("lets the rule's tier and every tier above it through", () => {
    for (const tier of ['pro', 'sharp', 'enterprise'] as const) expect(refusal(() => requireTierFor(tier, 'futuresTools'))).toBeNull();
    expect(refusal(() => requireFeatureOf('pro', 'ev'))).toBeNull();
    expect(refusal(() => requireFeatureOf('hobby', 'ev'))?.[1]).toBe('The ev feature needs the pro tier or higher; this key is hobby');
  });
});

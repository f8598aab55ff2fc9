import { describe, expect, it } from 'vitest';
import { Catalog } from '../views/catalog.js';
import { parseRecipe } from './fair-recipe.js';

const catalog = new Catalog();

describe('parseRecipe', () => {
  it("carries the operator's margin for one-sided prices (ONE_SIDED_MARGIN_PERCENT), beside the caller's own", () => {
    const recipe = parseRecipe({ assumed_margin: 3 }, { catalog, oneSidedMargin: 0.08 }, 'pro');
    expect([recipe.assumedMargin, recipe.defaultMargin]).toEqual([0.03, 0.08]);
  });

  it("falls back to the setting's default, 5 %, when the read side carries none", () => {
    const recipe = parseRecipe({}, { catalog }, 'pro');
    expect([recipe.assumedMargin, recipe.defaultMargin]).toEqual([null, 0.05]);
  });
});

import { describe, it, expect } from 'vitest';
import * as oddsMath from './index.js';

describe('public face of the odds math library', () => {
  it('exports exactly the documented functions and constants', () => {
    expect(Object.keys(oddsMath).sort()).toEqual(
      [
        'DEVIG_CHOICES',
        'backLayMidpoint',
        'layAsBackDecimal',
        'netBackDecimal',
        'DEVIG_METHODS',
        'RECIPE_DEVIG_METHODS',
        'deVigEfficientShin',
        'deVigGoto',
        'decimalToFractional',
        'fractionalToDecimal',
        'hedge',
        'simultaneousKelly',
        'deVigLogit',
        'deVigOddsRatio',
        'deVigWorstCase',
        'oddsRatio',
        'worstCaseOf',
        'TYPICAL_MARGIN_SIGMA',
        'americanToDecimal',
        'americanToProbability',
        'arbitrage',
        'clvPercent',
        'deVig',
        'deVigAdditive',
        'deVigImplied',
        'deVigMultiplicative',
        'deVigPower',
        'deVigShin',
        'decimalToAmerican',
        'decimalToAmericanUnsnapped',
        'decimalToProbability',
        'evPercent',
        'hold',
        'impliedProbabilities',
        'impliedSum',
        'kellyPercent',
        'marketWidth',
        'middle',
        'middleHitProbability',
        'normalCdf',
        'overround',
        'powerExponent',
        'probabilityToAmerican',
        'probabilityToDecimal',
        'roundedDecimalOdds',
        'roundedImpliedProbability',
        'roundedStakes',
        'shinZ',
        'spreadMiddle',
        'totalsMiddle',
        'wholeNumbersProbability',
      ].sort(),
    );
  });

  it('chains end to end: de-vig a sharp -150/+130, then price +145 elsewhere', () => {
    const fair = oddsMath.deVigPower([oddsMath.americanToDecimal(-150), oddsMath.americanToDecimal(130)]);
    const underdog = fair[1] ?? 0;
    const offered = oddsMath.americanToDecimal(145);
    expect(oddsMath.evPercent(underdog, offered)).toBeGreaterThan(0);
    expect(oddsMath.kellyPercent(underdog, offered)).toBeGreaterThan(0);
  });
});

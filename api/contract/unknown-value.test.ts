import { describe, expect, it } from 'vitest';
import { closestMatch, editDistance, notOneOf, unknownValue } from './unknown-value.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('spreads', 'spread')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'nba')).toBe(3);
    expect(editDistance('nfl', 'nfl')).toBe(0);
  });
});

describe('closestMatch', () => {
  it('finds the value a slip of one or two letters meant, case aside', () => {
    expect(closestMatch('spreads', ['moneyline', 'spread', 'total'])).toBe('spread');
    expect(closestMatch('basketbal', ['baseball', 'basketball'])).toBe('basketball');
    expect(closestMatch('NBA', ['nba', 'nfl'])).toBe('nba');
  });

  it('suggests nothing for a value far from every allowed one', () => {
    expect(closestMatch('corners', ['moneyline', 'spread', 'total'])).toBeUndefined();
    expect(closestMatch('ab', ['nba'])).toBeUndefined();
  });
});

describe('unknownValue', () => {
  const markets = { what: 'market', values: ['moneyline', 'spread', 'total'], synonyms: new Map([['h2h', 'moneyline']]) };

  it('offers the near value and lists a short set', () => {
    expect(unknownValue('spreads', markets)).toBe("unknown market 'spreads'; did you mean 'spread'? Allowed: moneyline, spread, total");
    expect(unknownValue('corners', markets)).toBe("unknown market 'corners'; allowed: moneyline, spread, total");
  });

  it("offers our name for another API's when no value of ours is near", () => {
    expect(unknownValue('h2h', markets)).toBe("unknown market 'h2h'; did you mean 'moneyline'? Allowed: moneyline, spread, total");
  });

  it('names the listing endpoint instead of a long set', () => {
    const books = {
      what: 'sportsbook',
      values: Array.from({ length: 20 }, (_, i) => `book${i}`).concat('fanduel'),
      listedAt: 'GET /api/v1/sportsbooks',
    };
    expect(unknownValue('fandual', books)).toBe("unknown sportsbook 'fandual'; did you mean 'fanduel'? GET /api/v1/sportsbooks lists them");
    expect(unknownValue('quidditch', books)).toBe("unknown sportsbook 'quidditch'; GET /api/v1/sportsbooks lists them");
  });
});

describe('notOneOf', () => {
  it('lists the enum and adds the near value when there is one', () => {
    expect(notOneOf(['today', 'tomorrow', 'week'], 'tomorow')).toBe("must be one of today, tomorrow, week; did you mean 'tomorrow'?");
    expect(notOneOf(['today', 'tomorrow', 'week'], 'yesterday')).toBe('must be one of today, tomorrow, week');
    expect(notOneOf([1, 2], 3)).toBe('must be one of 1, 2');
  });
});

import { describe, expect, it } from 'vitest';
import { logFormatFor } from './logger.js';

describe('the log format', () => {
  it('is readable lines at a terminal and JSON lines anywhere else when LOG_FORMAT is auto', () => {
    expect(logFormatFor('auto', true)).toBe('pretty');
    expect(logFormatFor('auto', false)).toBe('json');
  });

  it('is what LOG_FORMAT names whatever standard output is', () => {
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');
  });
});

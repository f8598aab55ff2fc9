import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../../schemas/reference/deeplink-templates.js';

describe('fillTemplate', () => {
  it('URL-encodes values and refuses a template with a placeholder left empty', () => {
    expect(fillTemplate('https://b.example/e/{event_id}?s={selection_id}', { event_id: 'a/b c', selection_id: '0QA1' })).toBe(
      'https://b.example/e/a%2Fb%20c?s=0QA1',
    );
    expect(fillTemplate('https://b.example/e/{event_id}?s={selection_id}', { event_id: '1', selection_id: null })).toBeNull();
  });
});

// Bug: the chaos run's sessions check printed a failed revocation as its status only ("answered
// 503", run 2 of 2026-11-29), so nobody could tell load shedding (503 with Retry-After) from an
// unreachable store. A failed answer now goes to the table with its headers and body.
import { describe, expect, it } from 'vitest';
import { answerLine } from './chaos-sessions.js';

describe("the sessions check's failed answers", () => {
  it('are printed with their status, headers (Retry-After among them, never a cookie) and body', () => {
    const headers = new Headers({
      'retry-after': '1',
      'content-type': 'application/json; charset=utf-8',
      'set-cookie': 'odds_session=not-for-the-table; Path=/api/v1',
    });
    const text = '{"success":false,"error":{"code":"overloaded","message":"The server is overloaded: retry after 1 s"}}';
    expect(answerLine({ status: 503, headers, text })).toBe(
      '503 [content-type: application/json; charset=utf-8; retry-after: 1] {"success":false,"error":{"code":"overloaded","message":"The server is overloaded: retry after 1 s"}}',
    );
  });

  it('keep the first 400 characters of a long body', () => {
    expect(answerLine({ status: 500, headers: new Headers(), text: 'x'.repeat(1000) })).toBe(`500 [] ${'x'.repeat(400)}`);
  });
});

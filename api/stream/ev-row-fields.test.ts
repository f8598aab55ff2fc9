import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { EvRowFields } from './ev-row-fields.js';

/** An app with the routes' Ajv options that matter here (api/app.ts), ready so its compiler is built. */
async function readyApp(): Promise<ReturnType<typeof Fastify>> {
  const app = Fastify({ ajv: { customOptions: { coerceTypes: 'array', allErrors: false, removeAdditional: false, verbose: true } } });
  app.get('/x', { schema: { querystring: { type: 'object', properties: { n: { type: 'number' } } } } }, () => ({}));
  await app.ready();
  return app;
}

describe("WebSocket +EV row filters, checked by the app's own validator", () => {
  it('coerces as the routes do: text to numbers and booleans, a one-item list to its value, a list of text joined', async () => {
    const app = await readyApp();
    const given: Record<string, unknown> = {
      min_kelly: '2.5',
      max_confidence: [80],
      is_player_prop: 'false',
      stat_category: ['points', 'rebounds'],
    };
    expect(new EvRowFields(app).of((name) => given[name])).toEqual({
      min_kelly: 2.5,
      max_confidence: 80,
      is_player_prop: false,
      stat_category: 'points,rebounds',
    });
    await app.close();
  });

  it('names the filter a bad value is for, and is undefined when no filter is given', async () => {
    const app = await readyApp();
    const fields = new EvRowFields(app);
    expect(() => fields.of((name) => (name === 'min_kelly' ? 'lots' : undefined))).toThrow("Invalid filter 'min_kelly': must be number");
    expect(fields.of(() => undefined)).toBeUndefined();
    await app.close();
  });
});

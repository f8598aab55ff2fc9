import type { FastifyPluginAsync } from 'fastify';
import type { AccessLeases, KeyStore } from '../accounts/index.js';
import type { SessionAuth } from '../session/index.js';
import { StreamService } from './service.js';
import type { StreamDeps } from './service.js';
import { sseRoutes } from './sse.js';
import { attachWebSocket } from './ws.js';
import { AccountRates } from './account-rates.js';

export { StreamService } from './service.js';
export type { StreamDeps, StreamSettings, StreamSnapshot } from './service.js';
export { StreamHub, Group, DEFAULT_STREAM_OPTIONS } from './hub.js';
export type { SourceBatch, StreamConnection, StreamSource, StreamSpec } from './hub.js';
export { WS_PATHS, WS_PROTOCOL, CLOSE as WS_CLOSE } from './ws.js';
export { presentListRow } from './opportunity-source.js';
export { ALERTS_CHANNEL, ALERT_FRAME } from './alert-source.js';
export type { AlertFollower, StreamedAlert } from './alert-source.js';

/**
 * SSE routes (in the authenticated context, so the key, rate limit and headers apply before a
 * stream opens) and the WebSocket endpoint on the same server. The service is closed before
 * the server, so open streams end and the server can stop.
 */
export const streamPlugin: FastifyPluginAsync<{
  deps: StreamDeps;
  keys: KeyStore;
  access: AccessLeases;
  sessions?: SessionAuth;
  onService?: (s: StreamService) => void;
}> = async (app, { deps, keys, access, sessions, onService }) => {
  const service = new StreamService(deps);
  onService?.(service);
  // The SSE routes go on this context itself, not a child: Fastify builds a context's validator
  // compiler when a route with a schema joins it, and the WebSocket checks its filters with this
  // context's compiler (`EvRowFields`), so both streams validate with the routes' one Ajv set-up.
  const rates = new AccountRates(keys, (err) => app.log.error({ err }, 'moving a stream to its account’s new commission rate failed'));
  await sseRoutes(app, { service, access, rates });
  attachWebSocket(app, service, keys, access, rates, sessions);
  app.addHook('preClose', (done) => {
    rates.close();
    service.close();
    done();
  });
};

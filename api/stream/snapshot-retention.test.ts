/**
 * What went wrong: an SSE subscriber's snapshot stayed in memory for as long as the subscriber
 * stayed connected. The frames were built inside the request handler, whose scope V8 shares among
 * every closure made there, the connection's close listeners included; those live as long as the
 * connection, so the snapshot's text did too. The stream bench's 1,000 SSE subscribers held about
 * 150 MB of a 500 MB heap that way, and every major GC had to mark it.
 *
 * A snapshot must be garbage once it was sent and the group has moved on, while its subscriber
 * keeps reading live frames.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SseClient, WsClient } from '../../test/support/stream-clients.js';
import { fixtureEvent, startStreamApp } from '../../test/support/stream-app.js';
import type { StreamApp } from '../../test/support/stream-app.js';
import { gc } from '../../test/support/gc.js';

let s: StreamApp;
afterEach(async () => {
  await s.close();
});

/** Records a weak reference to every snapshot the service builds for the given share key prefix. */
function watchSnapshots(app: StreamApp, prefix: string): WeakRef<object>[] {
  const built: WeakRef<object>[] = [];
  const service = app.service;
  const shared = service.shared.bind(service);
  service.shared = (group, key, build) =>
    shared(group, key, () => {
      const value = build();
      if (key.startsWith(prefix)) built.push(new WeakRef(value as object));
      return value;
    });
  return built;
}

function seed(app: StreamApp): void {
  app.board.applyEvent(fixtureEvent('nba-1'));
  for (let i = 0; i < 50; i++) {
    app.set('nba-1', 'draftkings', 'total_points', 'over', 1.9, 200 + i);
    app.set('nba-1', 'fanduel', 'total_points', 'over', 1.95, 200 + i);
  }
}

/** Lets the WeakRefs' targets go (they are kept until the current job ends), then collects. */
async function collect(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

/** A subscriber as the test needs it: how many frames of a name it received, whatever the protocol. */
interface Subscriber {
  until(name: string, count: number): Promise<void>;
  close(): void;
}

const protocols: { name: string; share: string; open: (app: StreamApp) => Promise<Subscriber> }[] = [
  {
    name: 'SSE',
    share: 'sse|',
    open: async (app) => {
      const c = await SseClient.open(`${app.url}/api/v1/stream?channel=odds&api_key=${app.keys.sharp}`);
      return { until: (name, count) => c.until((f) => f.filter((x) => x.event === name).length === count), close: () => c.close() };
    },
  },
  {
    name: 'WebSocket',
    share: 'ws|',
    open: async (app) => {
      const c = await WsClient.open(`${app.wsUrl}/ws?api_key=${app.keys.sharp}&channels=odds`);
      return { until: (name, count) => c.until((m) => m.filter((x) => x.type === name).length === count), close: () => c.close() };
    },
  },
];

describe('a sent snapshot is not kept for the life of the connection', () => {
  it.each(protocols)(
    '$name: collected after the group moves on, while the subscriber still receives live frames',
    async ({ share, open }) => {
      s = await startStreamApp();
      seed(s);
      const built = watchSnapshots(s, share);
      const c = await open(s);
      await c.until('snapshot:complete', 1);
      expect(built).toHaveLength(1);

      // A live change: the group's version moves, so its shared snapshot is stale and dropped.
      s.clock.advance(1000);
      s.set('nba-1', 'draftkings', 'total_points', 'over', 2.05, 200);
      await c.until('odds:update', 1);
      await collect();

      expect(built[0]?.deref()).toBeUndefined();
      s.clock.advance(1000);
      s.set('nba-1', 'fanduel', 'total_points', 'over', 2.1, 201);
      await c.until('odds:update', 2);
      c.close();
    },
  );
});

import type { Logger } from 'pino';
import { TOPICS, isRawFutures } from '../schemas/index.js';
import type { FeedRecord } from '../schemas/index.js';
import { NO_BATCH } from '../pipeline/bus/index.js';
import type { Bus } from '../pipeline/bus/index.js';
import { ManualClock, systemClock } from '../pipeline/clock.js';
import type { Clock } from '../pipeline/clock.js';
import { deadLetterSource, gameStateSource } from '../pipeline/feeds/index.js';
import type { Feed } from '../pipeline/feeds/index.js';
import type { Config } from './config.js';
import type { CertLoginOptions } from '../pipeline/feeds/index.js';
import { readFile } from 'node:fs/promises';

/**
 * The session the stream and the Betting API use: the configured token, else one from the
 * certificate login (the log says it logged in; the token and the password are never logged).
 * With a certificate login configured, `renew` logs in again: the stream asks for it when its
 * session expires.
 */
async function betfairSession(
  o: Config['betfair'],
  login: (options: CertLoginOptions) => Promise<{ sessionToken: string }>,
  logger: Logger,
): Promise<{ appKey: string; sessionToken: string; renew: (() => Promise<string>) | null }> {
  const appKey = o.appKey;
  if (appKey === null) throw new Error('FEED=betfair needs BETFAIR_APP_KEY');
  const c = o.certLogin;
  const renew =
    c === null
      ? null
      : async (): Promise<string> => {
          const [cert, key] = await Promise.all([readFile(c.certFile, 'utf8'), readFile(c.keyFile, 'utf8')]);
          const { sessionToken } = await login({ url: c.url, appKey, username: c.username, password: c.password, cert, key });
          logger.info({ url: c.url }, 'betfair: logged in with the client certificate');
          return sessionToken;
        };
  if (o.sessionToken !== null) return { appKey, sessionToken: o.sessionToken, renew };
  if (renew === null) throw new Error('FEED=betfair needs BETFAIR_SESSION_TOKEN or a certificate login');
  return { appKey, sessionToken: await renew(), renew };
}

/** A replay drives its own clock from the recorded timestamps; everything else runs on the wall clock. */
export function clockFor(config: Config): Clock {
  return config.feed === 'replay' ? new ManualClock(0) : systemClock;
}

/** Only the configured feed's module is loaded. */
export async function makeFeed(config: Config, clock: Clock, logger: Logger): Promise<Feed | null> {
  switch (config.feed) {
    case 'none':
      return null;
    case 'simulator': {
      const { SimulatorFeed } = await import('../pipeline/feeds/simulator/index.js');
      return new SimulatorFeed({
        seed: config.simulator.seed,
        ticksPerSecond: config.simulator.ticksPerSecond,
        intervalMs: config.simulator.stepMs,
        splitsIntervalMs: config.simulator.splitsIntervalMs,
        clock,
      });
    }
    case 'replay': {
      if (!(clock instanceof ManualClock) || config.replay.file === null) throw new Error('replay needs a manual clock and REPLAY_FILE');
      const file = config.replay.file;
      const betfair = await import('../pipeline/feeds/betfair/index.js');
      if (await betfair.isStreamRecording(file)) {
        const catalogueFiles =
          config.betfair.catalogueFile !== null ? [config.betfair.catalogueFile] : await betfair.catalogueFilesBeside(file);
        const catalogue = await betfair.loadCatalogueFiles(catalogueFiles);
        return new betfair.BetfairReplayFeed({
          file,
          catalogue,
          scoresFile: await betfair.scoresFileBeside(file),
          book: config.betfair.book,
          commissionPercent: config.betfair.commissionPercent,
          speed: config.replay.speed,
          clock,
          logger: logger.child({ feed: 'betfair-replay' }),
        });
      }
      const { ReplayFeed } = await import('../pipeline/feeds/theoddsapi/index.js');
      return new ReplayFeed({
        file,
        speed: config.replay.speed,
        clock,
        logger: logger.child({ feed: 'replay' }),
        onProgress: (p) => logger.debug({ progress: p }, 'replay progress'),
      });
    }
    case 'betfair': {
      const o = config.betfair;
      const { BetfairStreamFeed, BettingApiCatalogue, DEFAULT_MARKET_FIELDS, certLogin } =
        await import('../pipeline/feeds/betfair/index.js');
      const feedLogger = logger.child({ feed: 'betfair' });
      const { appKey, sessionToken, renew } = await betfairSession(o, certLogin, feedLogger);
      const catalogue = new BettingApiCatalogue({
        baseUrl: o.bettingApiUrl,
        appKey,
        sessionToken,
        logger: feedLogger,
      });
      return new BetfairStreamFeed({
        host: o.host,
        port: o.port,
        appKey,
        sessionToken,
        ...(renew === null
          ? {}
          : {
              renewSession: async () => {
                const token = await renew();
                catalogue.useSession(token);
                return token;
              },
            }),
        marketFilter: {
          eventTypeIds: o.eventTypeIds,
          marketTypes: o.marketTypes,
          ...(o.countryCodes !== null ? { countryCodes: o.countryCodes } : {}),
        },
        dataFilter: { fields: DEFAULT_MARKET_FIELDS },
        book: o.book,
        commissionPercent: o.commissionPercent,
        catalogue,
        clock,
        logger: feedLogger,
      });
    }
    case 'theoddsapi': {
      const o = config.theOddsApi;
      if (o.key === null) throw new Error('FEED=theoddsapi needs THEODDSAPI_KEY');
      const { TheOddsApiPollingFeed } = await import('../pipeline/feeds/theoddsapi/index.js');
      return new TheOddsApiPollingFeed({
        apiKey: o.key,
        baseUrl: o.baseUrl,
        sports: o.sports,
        regions: o.regions,
        markets: o.markets,
        clock,
        logger: logger.child({ feed: 'theoddsapi' }),
      });
    }
  }
}

/**
 * Raw records (odds ticks and splits) go to `odds.ticks.raw`, game states from feeds that report
 * them to `gamestate.raw`; both partitioned by league (event matching needs a league in one place).
 * Messages a feed could not read go to `dead-letter`, keyed like the bus's own dead letters.
 */
export function startFeed(feed: Feed, bus: Bus): Promise<void> {
  const producer = bus.producer();
  // A feed reads no batch: what it sends is written as no batch's.
  const rawKey = (t: FeedRecord): string => `${t.book}:${isRawFutures(t) ? t.bookMarketId : t.bookEventId}`;
  gameStateSource(feed)?.onGameState((states) =>
    producer.send(
      TOPICS.rawGameState,
      states.map((g) => ({ key: `${g.book}:${g.bookEventId}`, partitionKey: g.league, value: g })),
      NO_BATCH,
    ),
  );
  deadLetterSource(feed)?.onDeadLetter((letters) =>
    producer.send(
      TOPICS.deadLetter,
      letters.map((d) => ({ key: `${d.topic}:${d.partition}:${d.offset}`, value: d })),
      NO_BATCH,
    ),
  );
  return feed.start((records) =>
    producer.send(
      TOPICS.rawTicks,
      records.map((t) => ({ key: rawKey(t), partitionKey: t.league, value: t })),
      NO_BATCH,
    ),
  );
}

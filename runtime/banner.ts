import { TIER_NAMES } from '../schemas/index.js';
import type { TierName } from '../schemas/index.js';
import type { Config } from './config.js';

/** What `make run` prints once the API listens: the URLs and one demo key per tier. */
export function printBanner(
  config: Config,
  system: {
    url: string;
    store: { kind: string };
    demoKeys: Record<TierName, string>;
    analystUrl: string | null;
    metricsUrl: string | null;
  },
): void {
  const lines = [
    '',
    `Odds platform API: ${system.url}/api/v1   (role: ${config.role}, feed: ${config.role === 'api' ? 'none' : config.feed}, store: ${system.store.kind}, data: ${config.dataDir})`,
    `OpenAPI document:  ${system.url}/api/v1/openapi.json`,
    ...(system.analystUrl
      ? [`Analyst SQL:       ${system.analystUrl}   (read-only ClickHouse HTTP, user ${config.analyst?.user ?? ''})`]
      : []),
    ...(system.metricsUrl
      ? [
          `Metrics:           ${system.metricsUrl}/metrics   (operator port${config.metrics.token ? ', bearer METRICS_TOKEN' : ''}: keep it private)`,
        ]
      : []),
    'Demo API keys (send as X-API-Key, Authorization: Bearer, or ?api_key=):',
    ...TIER_NAMES.map((tier) => `  ${tier.padEnd(10)} ${system.demoKeys[tier]}`),
    `Try: curl -H "X-API-Key: ${system.demoKeys.pro}" ${system.url}/api/v1/sports`,
    // The key rides in the fragment, which browsers never send to a server; the page moves it into the sign-in form and clears it.
    'Web screen, sign in as a demo tier (the link fills in the key; press Sign in):',
    ...TIER_NAMES.map((tier) => `  ${tier.padEnd(10)} ${system.url}/#signin=${encodeURIComponent(system.demoKeys[tier])}`),
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

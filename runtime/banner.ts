import { TIER_NAMES } from '../schemas/index.js';
import type { TierName } from '../schemas/index.js';
import type { Config } from './config.js';

/** What the banner needs to know of the started system. */
export interface BannerFacts {
  url: string;
  store: { kind: string };
  demoKeys: Record<TierName, string>;
  analystUrl: string | null;
  metricsUrl: string | null;
}

/** What `make run` prints once the API listens: the URLs and one demo key per tier. */
export function printBanner(config: Config, system: BannerFacts): void {
  process.stdout.write(bannerLines(config, system).join('\n') + '\n');
}

/** The banner's lines, apart from printing them so that a test can read them. */
export function bannerLines(config: Pick<Config, 'role' | 'feed' | 'dataDir' | 'analyst' | 'metrics'>, system: BannerFacts): string[] {
  return [
    '',
    `Odds platform API: ${system.url}/api/v1   (role: ${config.role}, feed: ${config.role === 'api' ? 'none' : config.feed}, store: ${system.store.kind}, data: ${config.dataDir})`,
    `OpenAPI document:  ${system.url}/api/v1/openapi.json`,
    `MCP server:        ${system.url}/api/v1/mcp   (Streamable HTTP for AI agents, same keys; docs/mcp.md)`,
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
}

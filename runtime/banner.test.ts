import { describe, expect, it } from 'vitest';
import { bannerLines } from './banner.js';
import { loadConfig } from './config.js';

const system = {
  url: 'http://127.0.0.1:8080',
  store: { kind: 'chdb' },
  demoKeys: { free: 'free_k', hobby: 'hobby_k', pro: 'pro_k', sharp: 'sharp_k', enterprise: 'enterprise_k' },
  analystUrl: null,
  metricsUrl: null,
};

describe('the start-up banner', () => {
  const lines = bannerLines(loadConfig({ DATA_DIR: '/tmp/odds-data' }), system);

  it('names the MCP server URL beside the REST and OpenAPI URLs', () => {
    expect(lines.slice(1, 4)).toEqual([
      'Odds platform API: http://127.0.0.1:8080/api/v1   (role: all, feed: simulator, store: chdb, data: /tmp/odds-data)',
      'OpenAPI document:  http://127.0.0.1:8080/api/v1/openapi.json',
      'MCP server:        http://127.0.0.1:8080/api/v1/mcp   (Streamable HTTP for AI agents, same keys; docs/mcp.md)',
    ]);
  });

  it('prints one demo key and one sign-in link per tier', () => {
    expect(lines).toContain('  pro        pro_k');
    expect(lines).toContain('  pro        http://127.0.0.1:8080/#signin=pro_k');
  });
});

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/entry.js';

/** `docker compose` (v2 plugin) or `docker-compose`: both validate a file without an engine. */
function composeCommand(): string[] | null {
  if (spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0) return ['docker-compose'];
  return null;
}

const compose = composeCommand();
if (!compose)
  console.warn(
    'skipping the docker-compose.yml check: neither `docker compose` nor `docker-compose` is installed (`make test` installs docker-compose when it can)',
  );

describe.skipIf(compose === null)('docker-compose.yml', () => {
  const run = (...args: string[]) => {
    const [cmd, ...pre] = compose ?? [];
    return spawnSync(cmd ?? '', [...pre, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', API_KEYS: 'pro:compose-check-key' },
    });
  };

  it('passes `compose config` and names every service of the production shape', () => {
    const check = run('config', '-q');
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    const services = run('config', '--services')
      .stdout.split('\n')
      .filter((s) => s.length > 0)
      .sort();
    expect(services).toEqual(['api', 'clickhouse', 'kafka', 'pipeline', 'pipeline-feed', 'redis', 'schema-registry']);
  });

  it('gives every service a health check and a restart policy', () => {
    const text = readFileSync(`${ROOT}/docker-compose.yml`, 'utf8');
    const infra = ['kafka', 'schema-registry', 'clickhouse', 'redis'];
    for (const name of infra) {
      const block = text.slice(text.indexOf(`\n  ${name}:\n`) + 1).split(/\n  [a-z-]+:\n/)[0] ?? '';
      expect(block, name).toContain('healthcheck:');
      expect(block, name).toContain('restart: unless-stopped');
    }
    // The app services inherit both from the x-app anchor.
    const app = text.slice(text.indexOf('x-app: &app'), text.indexOf('\nservices:'));
    expect(app).toContain('healthcheck:');
    expect(app).toContain('restart: unless-stopped');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './signature.js';

// docs/alerts.md promises that a few lines verify a delivery in any language: its Node and
// Python snippets are run here as they stand in the file, against signatures the service makes.

const DOC = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../docs/alerts.md'), 'utf8');
const snippet = (lang: string): string => {
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(DOC);
  if (!m?.[1]) throw new Error(`docs/alerts.md has no ${lang} block`);
  return m[1];
};

const dir = mkdtempSync(join(tmpdir(), 'alert-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'whsec_docs';
const BODY = '{"id":"alt_1","rule_id":"alert_1","kind":"ev","sequence":1,"data":{"ev_percentage":2.5}}';
const now = (): number => Math.floor(Date.now() / 1000);
/** [body, signature, timestamp] cases and what verification must say of each. */
const cases = (): [string, string, string, boolean][] => {
  const ts = now();
  const good = signWebhook(SECRET, ts, BODY);
  return [
    [BODY, good, String(ts), true],
    [BODY.replace('2.5', '9.5'), good, String(ts), false],
    [BODY, good, String(ts + 1), false],
    [BODY, signWebhook(SECRET, ts - 600, BODY), String(ts - 600), false],
    [BODY, signWebhook('another secret', ts, BODY), String(ts), false],
  ];
};

function python(): string | null {
  for (const bin of ['/usr/bin/python3', 'python3', 'python']) {
    try {
      execFileSync(bin, ['--version'], { stdio: 'ignore', timeout: 5000 });
      return bin;
    } catch {
      // not on this machine
    }
  }
  return null;
}
const PYTHON = python();

describe('the signature check of docs/alerts.md', () => {
  it('our own verifier accepts the signature and refuses a changed body, timestamp or secret, and an old timestamp', () => {
    expect(
      cases().map(([body, signature, timestamp]) => verifyWebhook({ secret: SECRET, body, signature, timestamp, nowSeconds: now() })),
    ).toEqual(cases().map((c) => c[3]));
  });

  it('the Node snippet says the same', () => {
    const file = join(dir, 'verify.mjs');
    writeFileSync(
      file,
      `${snippet('js')}\nconst cases = JSON.parse(process.argv[2]);\nprocess.stdout.write(JSON.stringify(cases.map(([b, s, t]) => verify(${JSON.stringify(SECRET)}, b, s, t))));\n`,
    );
    const all = cases();
    const out = execFileSync(process.execPath, [file, JSON.stringify(all)], { encoding: 'utf8', timeout: 10_000 });
    expect(JSON.parse(out)).toEqual(all.map((c) => c[3]));
  });

  it.skipIf(PYTHON === null)('the Python snippet says the same', () => {
    const file = join(dir, 'verify.py');
    writeFileSync(
      file,
      `${snippet('python')}\nimport json, sys\ncases = json.loads(sys.argv[1])\nprint(json.dumps([verify(${JSON.stringify(SECRET)}, b.encode(), s, t) for b, s, t, _ in cases]))\n`,
    );
    const all = cases();
    const out = execFileSync(PYTHON as string, [file, JSON.stringify(all)], { encoding: 'utf8', timeout: 10_000 });
    expect(JSON.parse(out)).toEqual(all.map((c) => c[3]));
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretSeal } from './index.js';

/** Alert rules' signing secrets are stored sealed: what a table or topic holds cannot sign. */
describe('the seal of alert rule secrets', () => {
  const secret = 'whsec_' + 'a'.repeat(43);

  it('opens what it sealed, and the sealed form does not contain the secret', () => {
    const seal = new SecretSeal(randomBytes(32));
    const sealed = seal.seal(secret);
    expect(sealed).toMatch(/^sealed:v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('aaaa');
    expect(seal.open(sealed)).toBe(secret);
    // A fresh IV each time: the same secret never seals to the same text.
    expect(seal.seal(secret)).not.toBe(sealed);
  });

  it('cannot open what another key sealed, nor a tampered or unsealed value', () => {
    const seal = new SecretSeal(randomBytes(32));
    const sealed = seal.seal(secret);
    expect(new SecretSeal(randomBytes(32)).open(sealed)).toBeNull();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(seal.open(tampered)).toBeNull();
    expect(seal.open(secret)).toBeNull();
    expect(seal.open('sealed:v1:')).toBeNull();
  });

  it('takes ALERT_SECRET_KEY when set, else makes a key file in the data folder once and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seal-'));
    const first = SecretSeal.load(null, dir);
    const file = join(dir, 'alert-secret.key');
    expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(SecretSeal.load(null, dir).open(first.seal(secret))).toBe(secret);
    const hex = 'ab'.repeat(32);
    const configured = SecretSeal.load(hex, dir);
    expect(new SecretSeal(Buffer.from(hex, 'hex')).open(configured.seal(secret))).toBe(secret);
    expect(first.open(configured.seal(secret))).toBeNull();
  });

  it('refuses a damaged key file, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seal-'));
    writeFileSync(join(dir, 'alert-secret.key'), 'not a key');
    expect(() => SecretSeal.load(null, dir)).toThrow(`${join(dir, 'alert-secret.key')} is not a key of 64 hex digits`);
  });
});

import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, TEST_PROVIDERS_CONSENT, loadConfig } from '#server/config.ts';

/** The ConfigError message of a configuration, or null when it loads. */
function refusal(env: Record<string, string>): string | null {
  try {
    loadConfig(env);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

/** Production needs SECRETS_KEY (32 bytes); the provider tests give one. */
const PRODUCTION_KEY = Buffer.alloc(32, 7).toString('base64');

describe('configuration from the environment', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.siteUrl).toBe('http://localhost:3000');
    expect(config.paths.db).toMatch(/data[/\\]db$/);
    expect(config.siteRebuildMinutes).toBe(15);
    expect(config.cookieSecure).toBe(false);
  });

  it('names every bad value with a clear message', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SITE_REBUILD_MINUTES: '0', SUPPORT_ADMIN_PASSWORD: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('PORT="eighty": must be a whole number');
      expect(message).toContain('DATABASE_URL="mysql://x": must start with postgres: or postgresql:');
      expect(message).toContain('SITE_REBUILD_MINUTES="0": must be at least 1');
      expect(message).toContain('SUPPORT_ADMIN_PASSWORD="short": must be at least 12 characters');
    }
  });

  it('uses secure cookies when the site is served over https', () => {
    expect(loadConfig({ SITE_URL: 'https://example.dk/' }).cookieSecure).toBe(true);
    expect(loadConfig({ SITE_URL: 'https://example.dk/' }).siteUrl).toBe('https://example.dk');
  });

  it('uses the built-in test age and card providers by default in development and tests, and lists them as test providers', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const config = loadConfig({ NODE_ENV });
      expect(config.ageProvider).toEqual({ kind: 'test' });
      expect(config.paymentCard).toEqual({ kind: 'test' });
      expect(config.paymentCrypto).toEqual({ kind: 'test' });
      expect(config.paymentCarrier).toEqual({ kind: 'test' });
      expect(config.testProviders).toEqual([
        'AGE_PROVIDER=test (age verification)',
        'PAYMENT_CARD=test (card payments)',
        'PAYMENT_CRYPTO=test (crypto payments)',
        'PAYMENT_CARRIER=test (carrier billing)',
      ]);
    }
  });

  it('refuses PAYMENT_CARD=test in production without consent; the card provider needs its shop id and key', () => {
    expect(refusal({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, PAYMENT_CARD: 'test' })).toContain(
      `PAYMENT_CARD=test (card payments): a built-in TEST provider cannot run with NODE_ENV=production (no real check happens); configure a real provider, or set ALLOW_TEST_PROVIDERS=${TEST_PROVIDERS_CONSENT}`,
    );
    const allowed = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, PAYMENT_CARD: 'test', ALLOW_TEST_PROVIDERS: TEST_PROVIDERS_CONSENT });
    expect(allowed.testProviders).toEqual(['PAYMENT_CARD=test (card payments)']);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY }).paymentCard).toEqual({ kind: 'off' });
    expect(refusal({ PAYMENT_CARD: 'cardbilling' })).toContain('CARDBILLING_SHOP_ID="": required when PAYMENT_CARD=cardbilling');
    expect(refusal({ PAYMENT_CARD: 'cardbilling' })).toContain('CARDBILLING_SIGNATURE_KEY="": required when PAYMENT_CARD=cardbilling');
    const live = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, CARDBILLING_SHOP_ID: '12345', CARDBILLING_SIGNATURE_KEY: 'shop-signature-key' });
    // The brand's host: CardBilling's by default, Verotel's when the account is Verotel's, or CARDBILLING_URL.
    expect(live.paymentCard).toEqual({ kind: 'cardbilling', shopId: '12345', signatureKey: 'shop-signature-key', url: 'https://secure.billing.creditcard' });
    const liveVars = { NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, CARDBILLING_SHOP_ID: '12345', CARDBILLING_SIGNATURE_KEY: 'shop-signature-key' };
    expect(loadConfig({ ...liveVars, CARDBILLING_BRAND: 'verotel' }).paymentCard).toMatchObject({ url: 'https://secure.verotel.com' });
    expect(loadConfig({ ...liveVars, CARDBILLING_BRAND: 'verotel', CARDBILLING_URL: 'https://flexpay.example/' }).paymentCard).toMatchObject({ url: 'https://flexpay.example' });
    expect(refusal({ PAYMENT_CARD: 'cardbilling', CARDBILLING_BRAND: 'bitsafe' })).toContain('CARDBILLING_BRAND="bitsafe": must be cardbilling or verotel');
    expect(live.testProviders).toEqual([]);
    expect(refusal({ PAYMENT_CARD: 'paypal' })).toContain('PAYMENT_CARD="paypal": must be test, cardbilling or off');
  });

  it('PAYMENT_CRYPTO and PAYMENT_CARRIER: test refused in production without consent; the real ones need their credentials', () => {
    expect(refusal({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, PAYMENT_CRYPTO: 'test' })).toContain('PAYMENT_CRYPTO=test (crypto payments): a built-in TEST provider cannot run');
    expect(refusal({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, PAYMENT_CARRIER: 'test' })).toContain('PAYMENT_CARRIER=test (carrier billing): a built-in TEST provider cannot run');
    const off = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY });
    expect([off.paymentCrypto, off.paymentCarrier]).toEqual([{ kind: 'off' }, { kind: 'off' }]);
    expect(refusal({ PAYMENT_CRYPTO: 'confirmo' })).toContain('CONFIRMO_CALLBACK_PASSWORD="": required when PAYMENT_CRYPTO=confirmo');
    expect(refusal({ PAYMENT_CARRIER: 'dimoco' })).toContain('DIMOCO_PASSWORD="": required when PAYMENT_CARRIER=dimoco');
    expect(refusal({ PAYMENT_CARRIER: 'dimoco', DIMOCO_MERCHANT_ID: 'm-1', DIMOCO_PASSWORD: 'dimoco-password' })).toContain('DIMOCO_ORDER="": required when PAYMENT_CARRIER=dimoco');
    const live = loadConfig({
      NODE_ENV: 'production',
      SECRETS_KEY: PRODUCTION_KEY,
      CONFIRMO_API_KEY: 'confirmo-api-key',
      CONFIRMO_CALLBACK_PASSWORD: 'confirmo-callback',
      DIMOCO_MERCHANT_ID: 'm-1',
      DIMOCO_ORDER: 'o-9',
      DIMOCO_PASSWORD: 'dimoco-password',
    });
    expect(live.paymentCrypto).toEqual({ kind: 'confirmo', apiKey: 'confirmo-api-key', callbackPassword: 'confirmo-callback', url: 'https://confirmo.net' });
    expect(live.paymentCarrier).toMatchObject({ kind: 'dimoco', merchant: 'm-1', order: 'o-9', password: 'dimoco-password' });
    expect(live.testProviders).toEqual([]);
  });

  it('refuses a test provider in production unless ALLOW_TEST_PROVIDERS gives exactly the consent', () => {
    expect(refusal({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, AGE_PROVIDER: 'test' })).toContain(
      `AGE_PROVIDER=test (age verification): a built-in TEST provider cannot run with NODE_ENV=production (no real check happens); configure a real provider, or set ALLOW_TEST_PROVIDERS=${TEST_PROVIDERS_CONSENT}`,
    );
    expect(refusal({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, AGE_PROVIDER: 'test', ALLOW_TEST_PROVIDERS: 'true' })).toContain(
      `ALLOW_TEST_PROVIDERS="true": must be exactly ${TEST_PROVIDERS_CONSENT} (or unset)`,
    );
    const allowed = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, AGE_PROVIDER: 'test', ALLOW_TEST_PROVIDERS: TEST_PROVIDERS_CONSENT });
    expect(allowed.ageProvider).toEqual({ kind: 'test' });
    expect(allowed.testProviders).toHaveLength(1);
    expect(allowed.testProvidersAllowed).toBe(true);
  });

  it('seeds demo content by default in development and tests only; production refuses SEED_DEMO without ALLOW_DEMO_SEED (issue 30)', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    // Production as docs/security.md configures it: no demo adverts, no demo accounts, no demo receipts.
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY }).seedDemo).toBe(false);
    expect(refusal({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, SEED_DEMO: 'true' })).toContain(
      `SEED_DEMO=true: demo content cannot be seeded with NODE_ENV=production (its public adverts are fictional and its accounts sign in with the README's password); unset SEED_DEMO, or set ALLOW_DEMO_SEED=${TEST_PROVIDERS_CONSENT} for a test installation`,
    );
    expect(refusal({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, SEED_DEMO: 'yes', ALLOW_DEMO_SEED: 'yes' })).toContain(
      `ALLOW_DEMO_SEED="yes": must be exactly ${TEST_PROVIDERS_CONSENT} (or unset)`,
    );
    // No adverts asked for: nothing to refuse.
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, SEED_DEMO: 'true', SEED_DEMO_ADVERTS: '0' }).seedDemoAdverts).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, SEED_DEMO: 'true', ALLOW_DEMO_SEED: TEST_PROVIDERS_CONSENT }).seedDemo).toBe(true);
  });

  it('in production: no online check without Yoti credentials, Yoti with them (and its checked settings)', () => {
    const none = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY });
    expect(none.ageProvider).toEqual({ kind: 'none' });
    expect(none.testProviders).toEqual([]);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'config-yoti-'));
    try {
      const keyFile = path.join(dir, 'yoti.pem');
      writeFileSync(keyFile, generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }));
      const yoti = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: PRODUCTION_KEY, YOTI_SDK_ID: 'sdk-id', YOTI_API_KEY: 'api-key', YOTI_PUBLIC_KEY_FILE: keyFile });
      expect(yoti.ageProvider).toMatchObject({ kind: 'yoti', sdkId: 'sdk-id', apiKey: 'api-key', apiUrl: 'https://age.yoti.com/api/v1', ageThreshold: 25 });
      expect(yoti.ageProvider.kind === 'yoti' && yoti.ageProvider.publicKeyPem).toContain('BEGIN PUBLIC KEY');
      expect(yoti.testProviders).toEqual([]);

      const notAKey = path.join(dir, 'not-a-key.pem');
      writeFileSync(notAKey, 'hello');
      expect(refusal({ AGE_PROVIDER: 'yoti', YOTI_SDK_ID: 'a', YOTI_API_KEY: 'b', YOTI_PUBLIC_KEY_FILE: notAKey })).toContain(
        'YOTI_PUBLIC_KEY_FILE=',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const missing = refusal({ AGE_PROVIDER: 'yoti' });
    expect(missing).toContain('YOTI_SDK_ID="": required when AGE_PROVIDER=yoti');
    expect(missing).toContain('YOTI_API_KEY="": required when AGE_PROVIDER=yoti');
    expect(refusal({ AGE_PROVIDER: 'maybe' })).toContain('AGE_PROVIDER="maybe": must be test, yoti or none');
    expect(refusal({ YOTI_AGE_THRESHOLD: '16' })).toContain('YOTI_AGE_THRESHOLD="16": must be at least 18');
  });

  it('takes the site build credential (SITE_BUILD_TOKEN), refusing a short one', () => {
    expect(loadConfig({}).siteBuildToken).toBeUndefined();
    expect(loadConfig({ SITE_BUILD_TOKEN: 'b'.repeat(32) }).siteBuildToken).toBe('b'.repeat(32));
    expect(() => loadConfig({ SITE_BUILD_TOKEN: 'short' })).toThrow(/SITE_BUILD_TOKEN.*at least 24 characters/);
  });
});

describe('secrets key and idle timeouts', () => {
  const key = Buffer.alloc(32, 7);

  it('reads SECRETS_KEY as base64 or hex, and SECRETS_KEY_PREVIOUS as a comma list', () => {
    const config = loadConfig({ SECRETS_KEY: key.toString('base64'), SECRETS_KEY_PREVIOUS: `${Buffer.alloc(32, 1).toString('hex')}, ${Buffer.alloc(32, 2).toString('base64url')}` });
    expect(config.secretsKey).toEqual(key);
    expect(config.secretsKeysPrevious).toEqual([Buffer.alloc(32, 1), Buffer.alloc(32, 2)]);
    expect(loadConfig({}).secretsKey).toBeUndefined();
  });

  it('refuses a key of the wrong size without repeating it, and production without a key', () => {
    expect(() => loadConfig({ SECRETS_KEY: 'too-short-to-be-a-key' })).toThrow(/SECRETS_KEY=\(hidden\): must be 32 bytes/);
    expect(() => loadConfig({ SECRETS_KEY: key.toString('base64'), SECRETS_KEY_PREVIOUS: 'nope' })).toThrow(/SECRETS_KEY_PREVIOUS=\(hidden\)/);
    // The build's .br/.gz copies are for nginx in front (docs/deploy): off unless asked for.
    expect(loadConfig({}).sitePrecompress).toBe(false);
    expect(loadConfig({ SITE_PRECOMPRESS: 'true' }).sitePrecompress).toBe(true);
    // The site build's credential is a secret too: a bad one is named, never repeated.
    expect(() => loadConfig({ SITE_BUILD_TOKEN: 'short-build-token' })).toThrow(/SITE_BUILD_TOKEN=\(hidden\): must be at least 24 characters/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRETS_KEY="": required in production/);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: key.toString('hex') }).secretsKey).toEqual(key);
  });

  it('has idle timeouts of 7 days for advertisers and 2 hours for support, configurable', () => {
    expect(loadConfig({}).sessionIdle).toEqual({ advertiserMinutes: 7 * 24 * 60, supportMinutes: 120 });
    expect(loadConfig({ ADVERTISER_SESSION_IDLE_MINUTES: '60', SUPPORT_SESSION_IDLE_MINUTES: '15' }).sessionIdle).toEqual({
      advertiserMinutes: 60,
      supportMinutes: 15,
    });
    expect(() => loadConfig({ SUPPORT_SESSION_IDLE_MINUTES: '0' })).toThrow(/SUPPORT_SESSION_IDLE_MINUTES="0": must be at least 5/);
  });

  it('trusts no proxy by default, a number of hops, or the proxies\' addresses; refuses TRUST_PROXY=true', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const [value, message] of [
      ['true', 'TRUST_PROXY="true": trusts every X-Forwarded-For address'],
      ['yes', 'TRUST_PROXY="yes": trusts every X-Forwarded-For address'],
      ['11', 'TRUST_PROXY="11": must be at most 10 proxy hops'],
      ['10.0.0.0/33', 'TRUST_PROXY="10.0.0.0/33": must be false, a number of proxy hops, or IP addresses/CIDR ranges (not 10.0.0.0/33)'],
      ['proxy.example.dk', 'TRUST_PROXY="proxy.example.dk": must be false'],
    ] as const) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(message);
    }
  });

  it('lists the site\'s own origin and ALLOWED_ORIGINS (and the older HUB_ALLOWED_ORIGINS) as the allowed origins', () => {
    const config = loadConfig({
      SITE_URL: 'https://example.dk/',
      ALLOWED_ORIGINS: 'https://www.example.dk, http://127.0.0.1:3203/',
      HUB_ALLOWED_ORIGINS: 'https://app.example.dk',
    });
    expect(config.allowedOrigins).toEqual(['https://example.dk', 'https://www.example.dk', 'http://127.0.0.1:3203', 'https://app.example.dk']);
    expect(config.hubAllowedOrigins).toEqual(config.allowedOrigins);
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'example.dk' })).toThrow('ALLOWED_ORIGINS="example.dk": must be origins');
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'https://example.dk/path' })).toThrow('must be origins');
  });

  it('keeps the rate limits\' Redis counters under a prefix', () => {
    expect(loadConfig({}).rateLimitKeyPrefix).toBe('annoncekatalog:ratelimit:');
    expect(loadConfig({ RATE_LIMIT_KEY_PREFIX: 'staging:rl:' }).rateLimitKeyPrefix).toBe('staging:rl:');
    expect(() => loadConfig({ RATE_LIMIT_KEY_PREFIX: 'has space' })).toThrow('RATE_LIMIT_KEY_PREFIX');
  });
});

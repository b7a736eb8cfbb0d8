import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';

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
});

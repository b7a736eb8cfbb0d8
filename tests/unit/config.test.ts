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

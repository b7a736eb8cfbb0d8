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

  it('takes the site build credential (SITE_BUILD_TOKEN), refusing a short one', () => {
    expect(loadConfig({}).siteBuildToken).toBeUndefined();
    expect(loadConfig({ SITE_BUILD_TOKEN: 'b'.repeat(32) }).siteBuildToken).toBe('b'.repeat(32));
    expect(() => loadConfig({ SITE_BUILD_TOKEN: 'short' })).toThrow(/SITE_BUILD_TOKEN.*at least 24 characters/);
  });
});

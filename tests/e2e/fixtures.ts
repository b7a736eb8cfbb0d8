/**
 * Shared Playwright fixtures: `checkA11y(page)` runs axe-core and fails on serious or critical violations
 * (call it on every page a test visits); helpers for the age-gate cookie, unique values and support users
 * (the bootstrap admin's session with two-step sign-in, new support users, authenticator codes).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type APIResponse, type BrowserContext, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { codeAt, currentStep } from '../support/totp.ts';

type Fixtures = {
  /** axe on the page as it is; with `bothSizes`, also at the other of the desktop's and the phone's size. */
  checkA11y: (page: Page, options?: { bothSizes?: boolean }) => Promise<void>;
};

const DESKTOP_SIZE = { width: 1366, height: 900 };
const PHONE_SIZE = { width: 390, height: 844 };

async function axe(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = blocking.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`).join('\n');
  expect(blocking, `axe violations on ${page.url()} at ${page.viewportSize()?.width ?? '?'} px:\n${report}`).toEqual([]);
}

export const test = base.extend<Fixtures>({
  // Playwright reads the fixture's dependencies from this pattern; this one needs none.
  // eslint-disable-next-line no-empty-pattern
  checkA11y: async ({}, use) => {
    await use(async (page: Page, options = {}) => {
      await axe(page);
      if (!options.bothSizes) return;
      const size = page.viewportSize() ?? DESKTOP_SIZE;
      await page.setViewportSize(size.width > 600 ? PHONE_SIZE : DESKTOP_SIZE);
      await axe(page);
      await page.setViewportSize(size);
    });
  },
});

export { expect };

/**
 * The site build's credential for the bulk call fullprofiles (playwright.config.ts starts the server with
 * it; against E2E_BASE_URL set E2E_SITE_BUILD_TOKEN to that server's SITE_BUILD_TOKEN).
 */
export const siteBuildHeaders = (): Record<string, string> => ({ authorization: `Bearer ${process.env['E2E_SITE_BUILD_TOKEN'] ?? ''}` });

/** Marks the visitor as having passed the age gate (the cookie the gate sets). */
export async function passAgeGate(context: BrowserContext, baseURL: string | undefined): Promise<void> {
  await context.addCookies([{ name: 'age_consent', value: '1', url: baseURL ?? 'http://127.0.0.1:3100' }]);
}

/**
 * Waits until every island on the page has hydrated (Astro removes the `ssr` attribute then), so a click
 * on an island's control is handled by it.
 */
export async function islandsReady(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/**
 * `test` for a visitor who has passed the age gate: the gate's cookie is set before the test's first visit
 * (a test that clears the cookies calls passAgeGate again).
 */
export const visitorTest = test.extend({
  page: async ({ page, context, baseURL }, use) => {
    await passAgeGate(context, baseURL);
    await use(page);
  },
});

/** A value no other test (or earlier run) uses. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export const supportAdmin = { email: 'admin@example.test', password: 'e2e-admin-password' };

/**
 * Support users in browser tests. Administration needs two-step sign-in (TOTP), so the bootstrap admin
 * (`supportAdmin`) turns it on through the API the first time a test asks for its session; that session
 * and the secret are then shared by every test and worker of the run (a file in E2E_DATA_DIR, written
 * under a lock), so the admin signs in with a code once per run (a code works once). Other support users
 * are created fresh per test (`createSupportUser`), with two-step sign-in when asked.
 */
export type SupportUser = {
  id: number;
  email: string;
  password: string;
  name: string;
  permissions: SupportPermission[];
  /** Base32, when two-step sign-in is on. */
  totpSecret?: string;
  /** The last TOTP step used (to confirm or to sign in); the next code takes a later one. */
  lastStep?: number;
};

type SupportPermission = 'Support' | 'SEO' | 'Administration';
type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
type AdminState = { secret: string; lastStep: number; storageState: StorageState };

const adminStateFile = path.join(process.env['E2E_DATA_DIR'] ?? tmpdir(), 'e2e-support-admin.json');

/** The next code of the user's authenticator app the server takes: a step after the last used one. */
export async function nextTotpCode(user: { totpSecret?: string; lastStep?: number }): Promise<string> {
  if (!user.totpSecret) throw new Error('The user has no two-step sign-in');
  const step = Math.max(currentStep(), (user.lastStep ?? 0) + 1);
  // The server takes one step ahead of its clock; a later one waits for the clock.
  if (step > currentStep() + 1) await expect.poll(() => currentStep(), { timeout: 35_000, intervals: [500] }).toBeGreaterThanOrEqual(step - 1);
  user.lastStep = step;
  return codeAt(user.totpSecret, step);
}

/** POST /api/support/login as `user` (with the next code when two-step sign-in is on). */
export async function signInSupport(api: APIRequestContext, user: Pick<SupportUser, 'email' | 'password' | 'totpSecret' | 'lastStep'>): Promise<APIResponse> {
  const code = user.totpSecret ? await nextTotpCode(user) : undefined;
  return api.post('/api/support/login', { data: { email: user.email, password: user.password, ...(code ? { code } : {}) } });
}

/**
 * Turns two-step sign-in on for the support user signed in on `api` (twofactorsetup with their password,
 * then twofactorconfirm); answers the secret.
 */
export async function enableTotp(api: APIRequestContext, user: Pick<SupportUser, 'password' | 'totpSecret' | 'lastStep'>): Promise<string> {
  const setup = await api.post('/api/support/twofactorsetup', { data: { Password: user.password } });
  expect(setup.status(), await setup.text()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const step = currentStep();
  const confirmed = await api.post('/api/support/twofactorconfirm', { data: { Code: codeAt(secret, step) } });
  expect(confirmed.status(), await confirmed.text()).toBe(204);
  user.totpSecret = secret;
  user.lastStep = step;
  return secret;
}

async function withFileLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a worker that died is stale after a minute.
      if (Date.now() - started > 60_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The bootstrap admin's shared session (signing in and turning two-step sign-in on the first time). */
async function supportAdminState(baseURL: string): Promise<StorageState> {
  return withFileLock(adminStateFile, async () => {
    const saved = existsSync(adminStateFile) ? (JSON.parse(readFileSync(adminStateFile, 'utf8')) as AdminState) : null;
    if (saved) {
      const check = await playwrightRequest.newContext({ baseURL, storageState: saved.storageState });
      const profile = await check.get('/api/support/supportprofile');
      await check.dispose();
      if (profile.ok()) return saved.storageState;
    }
    const api = await playwrightRequest.newContext({ baseURL });
    try {
      const admin = { ...supportAdmin, ...(saved ? { totpSecret: saved.secret, lastStep: saved.lastStep } : {}) };
      const signedIn = await signInSupport(api, admin);
      if (!signedIn.ok()) throw new Error(`The support admin could not sign in (${signedIn.status()}: ${await signedIn.text()})`);
      const profile = (await signedIn.json()) as { twoFactorEnabled: boolean };
      if (!profile.twoFactorEnabled) await enableTotp(api, admin);
      const state: AdminState = { secret: admin.totpSecret!, lastStep: admin.lastStep!, storageState: await api.storageState() };
      writeFileSync(adminStateFile, JSON.stringify(state));
      return state.storageState;
    } finally {
      await api.dispose();
    }
  });
}

/** A request context signed in as the bootstrap admin (all three permissions, two-step sign-in on). */
export async function supportAdminRequest(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, storageState: await supportAdminState(baseURL) });
}

/** Signs a browser context (its pages and page.request) in as the bootstrap admin. */
export async function signInAsSupportAdmin(context: BrowserContext, baseURL: string | undefined): Promise<void> {
  const state = await supportAdminState(baseURL ?? 'http://127.0.0.1:3100');
  await context.addCookies(state.cookies);
}

/**
 * A new support user made by the bootstrap admin through the API (POST users), with two-step sign-in
 * turned on through the API when `twoFactor` is set.
 */
export async function createSupportUser(
  baseURL: string,
  options: { permissions: SupportPermission[]; twoFactor?: boolean; name?: string },
): Promise<SupportUser> {
  const admin = await supportAdminRequest(baseURL);
  const user = {
    email: `${unique('support')}@example.test`,
    password: `Support-${Math.random().toString(36).slice(2, 10)}-password`,
    name: options.name ?? `Tester ${Math.random().toString(36).slice(2, 7)}`,
    permissions: options.permissions,
  };
  const created = await admin.post('/api/support/users', { data: user });
  const answer = await created.text();
  await admin.dispose();
  expect(created.status(), answer).toBe(201);
  const row = JSON.parse(answer) as { id: number };
  const supportUser: SupportUser = { ...user, id: row.id };
  if (options.twoFactor) {
    const api = await playwrightRequest.newContext({ baseURL });
    expect((await signInSupport(api, supportUser)).status()).toBe(200);
    await enableTotp(api, supportUser);
    await api.dispose();
  }
  return supportUser;
}

/**
 * The production journey (issue 30, "A production journey in CI"): the server started as an operator
 * starts it on launch day, `NODE_ENV=production` on PostgreSQL with no demo seed, every provider a LIVE
 * adapter reaching a stand-in of its own over HTTP or SMTP (tests/support/production-stack.ts), and one
 * advertiser's way from sign-up to the public site in Chromium:
 *
 * 1. The start: no demo advert is public, no TEST provider's page exists.
 * 2. Sign-up on /create: the confirmation email read from the SMTP stand-in, the phone code from the
 *    GatewayAPI stand-in (whose delivery report reaches the server signed).
 * 3. The age check with Yoti: the stand-in's user view, back to the dashboard, waiting for support.
 * 4. A picture, and the 30-day package paid by card on the FlexPay stand-in's page (its signed postback).
 * 5. Administration signs in, turns on two-step sign-in, signs in again with a code, accepts the age check
 *    and approves the picture and the advert.
 * 6. After the rebuild, a visitor opens the advert's page with its picture.
 * 7. The operator starts the server again without an SMS provider: sign-up says so, and keeps what was typed.
 *
 * No step reads the outbox, and no TEST provider runs. `npm run test:production`; .ci/run runs it after the
 * PostgreSQL integration tests.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { test, expect, passAgeGate, islandsReady, nextTotpCode, unique } from '../e2e/fixtures.ts';
import { CREATE_WORDS, confirmSignUpInBrowser, fillCreateForm, finishSignUpInBrowser, type Inbox } from '../e2e/advertisers.ts';
import { OFFERS, decide, pay, startBuying } from '../e2e/commerce.ts';
import { writePlaceholderPicture } from '../e2e/media-files.ts';
import { scratchFolder } from '../e2e/scratch.ts';
import { logTail } from '../support/server-process.ts';
import { startProductionStack, type ProductionStack } from '../support/production-stack.ts';

test.describe.configure({ mode: 'serial' });

const scratch = scratchFolder('production-e2e');
const name = `Drift ${unique('').slice(1, 9)}`;
/** A Danish mobile number of this run (8 digits; the server's database is the run's own). */
const phone = `5${String(Date.now()).slice(-7)}`;
const email = `${unique('drift')}@example.invalid`;

let stack: ProductionStack;
let advertiserContext: BrowserContext;
let page: Page;
let advertId: number;
/** What the journey typed or received that must never reach the server's log (personal data and secrets). */
const secrets: Record<string, string> = { email, phone };

test.beforeAll(async () => {
  test.setTimeout(6 * 60_000);
  const started = Date.now();
  stack = await startProductionStack({ dir: path.join(tmpdir(), `annoncekatalog-production-${process.pid}`), port: Number(process.env['PRODUCTION_PORT']) });
  console.log(`production server ready ${((Date.now() - started) / 1000).toFixed(1)} s after its start (migrations, reference data, the first build)`);
});

test.afterAll(async () => {
  await advertiserContext?.close();
  await stack?.stop();
  scratch.remove();
});

// Playwright reads the hook's fixtures from this pattern; this one needs none.
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus && stack) {
    await testInfo.attach('server.log', { body: logTail(stack.logFile, 300), contentType: 'text/plain' });
  }
});

/** What the SMTP and GatewayAPI stand-ins received, read as the person reads their mail and phone. */
const inbox = (): Inbox => ({
  signUpLink: async (to) => {
    let mail: ParsedMail | undefined;
    await expect
      .poll(async () => {
        const received = stack.smtp.received.findLast((m) => m.to.includes(to));
        mail = received ? await simpleParser(received.data) : undefined;
        return mail?.text?.includes('/create/?confirm=') ?? false;
      }, { timeout: 30_000 })
      .toBe(true);
    const link = new URL(/https?:\/\/\S+\/create\/\?confirm=[\w-]+/.exec(mail!.text!)![0]);
    expect(link.origin, 'the link names SITE_URL').toBe(stack.url);
    secrets['the sign-up link'] = link.searchParams.get('confirm')!;
    return { subject: mail!.subject ?? null, path: link.pathname + link.search };
  },
  smsCode: async (to) => {
    let code = '';
    await expect
      .poll(() => {
        const sms = stack.sms.sent.findLast((m) => m.msisdn === Number(`45${to}`));
        code = /\b(\d{6})\b/.exec(sms?.message ?? '')?.[1] ?? '';
        return code !== '';
      }, { timeout: 30_000 })
      .toBe(true);
    secrets['the SMS code'] = code;
    return code;
  },
});

/** Support's sign-in screen with email and password (a code step, if any, follows). */
async function signInOnScreen(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto('/support/login/');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Adgangskode').fill(user.password);
  await page.getByRole('button', { name: 'Log ind' }).click();
}

test('a production start: no demo content, no TEST provider, live providers only', async ({ request }) => {
  const log = readFileSync(stack.logFile, 'utf8');
  expect(log).not.toContain('NO SMS PROVIDER');
  expect(log).not.toContain('NO SMTP');
  expect(log).not.toContain('TEST PROVIDERS');
  expect(log).not.toContain('testProviders');
  expect(log).not.toContain('demo content seeded');
  const search = await request.get(`${stack.url}/api/frontend/searchpageprofiles`, { params: { Locale: 'da', PageSize: '24', Url: '/escort/' } });
  expect(search.status()).toBe(200);
  expect(((await search.json()) as { items: unknown[] }).items).toEqual([]);
  for (const testPage of ['/test-age-provider/x', '/test-payments/card/startorder', '/test-payments/crypto/x', '/test-payments/carrier/x']) {
    expect((await request.get(`${stack.url}${testPage}`, { maxRedirects: 0 })).status(), testPage).toBe(404);
  }
});

test('an advertiser signs up: the email through SMTP, the phone code through GatewayAPI', async ({ browser }) => {
  advertiserContext = await browser.newContext({ baseURL: stack.url, locale: 'da-DK' });
  await passAgeGate(advertiserContext, stack.url);
  page = await advertiserContext.newPage();
  await page.goto('/create/');
  await islandsReady(page);
  await fillCreateForm(page, { email, phone, name });
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();
  await confirmSignUpInBrowser(page, inbox(), email, CREATE_WORDS.da);
  await finishSignUpInBrowser(page, inbox(), phone, CREATE_WORDS.da);
  advertId = ((await (await page.request.get('/api/backend/userprofile')).json()) as { advertId: number }).advertId;

  // The code went out once, from our sender, with our reference; its delivery report is accepted (signed).
  const sms = stack.sms.sent.filter((m) => m.msisdn === Number(`45${phone}`));
  expect(sms).toHaveLength(1);
  expect(sms[0]).toMatchObject({ sender: 'Annonce', auth: 'token-header' });
  expect(sms[0]!.callbackUrl).toMatch(new RegExp(`^${stack.url}/api/sms/gatewayapi`));
  expect(await stack.sms.report(sms[0]!.id, 'DELIVERED')).toBe(204);
});

test('the age check with Yoti: the stand-in’s view, back to the dashboard, waiting for support', async () => {
  await page.goto('/backend/verification/');
  await page.getByRole('button', { name: 'Tjek min alder online' }).click();
  await page.waitForURL((url) => url.origin === stack.yoti.url);
  await expect(page.getByRole('heading', { name: 'Yoti age estimation (stand-in)' })).toBeVisible();
  await page.getByRole('button', { name: 'Pass' }).click();
  await page.waitForURL((url) => url.pathname === '/backend/dashboard/');
  await expect(page.getByText('Dit alderstjek er bestået. Vores support bekræfter nu din verifikation')).toBeVisible();
  // The session was made with our credentials and the signed notification was asked for.
  const created = stack.yoti.requests.find((r) => r.method === 'POST' && r.path === '/api/v1/sessions');
  expect(created?.body).toMatchObject({ type: 'OVER', notification_url: `${stack.url}/api/backend/yoticallback` });
  const [sessionId] = [...stack.yoti.sessions.keys()];
  expect(stack.yoti.notified, 'the signed notification was accepted').toEqual([{ sessionId, status: 200 }]);
});

test('a picture, and the 30-day package paid by card on the FlexPay stand-in', async () => {
  await page.goto('/backend/pictures/');
  await page.getByLabel('Vælg billeder').setInputFiles(await writePlaceholderPicture(scratch.file('drift.jpg'), 'jpeg', 200));
  await expect(page.getByTestId('pictures-uploads').locator('li', { hasText: 'drift.jpg' })).toContainText('Tilføjet – venter på godkendelse.');

  await startBuying(page, { offer: OFFERS.package30.da, method: 'card' });
  await pay(page);
  await page.waitForURL((url) => url.origin === new URL(stack.flexpay.url).origin);
  await decide(page, 'card', 'Godkend · Approve');
  await expect(page).toHaveURL(new RegExp(`^${stack.url}/backend/dashboard/\\?orderId=\\d+$`));
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveAttribute('data-payment-status', 'paid');
  await expect(status).toContainText('Tak! Din betaling for Annonce i 30 dage er modtaget.');
  const orderId = /orderId=(\d+)/.exec(page.url())![1];
  await status.getByRole('link', { name: 'Se kvittering' }).click();
  await expect(page).toHaveURL(new RegExp(`/backend/promotion/receipt/${orderId}/$`));
  await expect(page.locator('[data-receipt-status]')).toHaveText('Betalt');
  await expect(page.locator('[data-document="receipt"]')).toContainText(/Kvittering nr\. \d{6}/);
});

test('Administration signs in with two-step sign-in, accepts the age check and approves the advert', async ({ browser }) => {
  test.setTimeout(3 * 60_000);
  const admin: { email: string; password: string; totpSecret?: string; lastStep?: number } = { ...stack.admin };
  const first = await browser.newContext({ baseURL: stack.url, locale: 'da-DK' });
  const setup = await first.newPage();
  await signInOnScreen(setup, admin);
  const notice = setup.locator('[data-two-factor-notice]');
  await expect(notice).toContainText('Administration kræver totrinsbekræftelse');
  await notice.getByRole('link', { name: 'Slå det til' }).click();
  await setup.getByLabel('Din adgangskode').fill(admin.password);
  await setup.getByRole('button', { name: 'Slå totrinsbekræftelse til' }).click();
  admin.totpSecret = ((await setup.locator('[data-two-factor-secret]').textContent()) ?? '').replace(/\s/g, '');
  secrets['the authenticator secret'] = admin.totpSecret;
  secrets['the admin password'] = admin.password;
  await setup.getByLabel('Kode fra din godkendelsesapp').fill(await nextTotpCode(admin));
  await setup.getByRole('button', { name: 'Bekræft og slå til' }).click();
  await expect(setup.locator('[data-two-factor-status]')).toHaveText('Totrinsbekræftelse er slået til.');
  await first.close();

  // The next sign-in asks for a code of a later step.
  const context = await browser.newContext({ baseURL: stack.url, locale: 'da-DK' });
  const support = await context.newPage();
  await signInOnScreen(support, admin);
  const code = support.getByLabel('Kode fra din godkendelsesapp');
  await expect(code).toBeFocused();
  await code.fill(await nextTotpCode(admin));
  await support.getByRole('button', { name: 'Log ind' }).click();
  await expect(support).not.toHaveURL(/\/support\/login\//);

  // The age check from Yoti, not marked TEST, accepted in the validation queue.
  await support.goto('/support/validation/');
  await expect(support.getByRole('heading', { level: 1, name: 'Validering' })).toBeVisible();
  const row = support.locator('tr[data-validation]', { has: support.getByRole('link', { name, exact: true }) });
  await expect(row.locator('[data-test-provider]')).toHaveCount(0);
  await row.getByRole('link', { name, exact: true }).click();
  await expect(support.getByRole('heading', { level: 1, name: /^Verifikation nr\. \d+$/ })).toBeVisible();
  await expect(support.locator('[data-provider="yoti"]')).toBeVisible();
  await support.getByLabel(/^Godkend –/).check();
  await support.getByRole('button', { name: 'Gem afgørelse' }).click();
  await expect(support.locator('[data-outcome]')).toContainText('Godkendt');

  await support.goto(`/support/review-adverts/${advertId}/`);
  await expect(support.getByRole('heading', { level: 1, name: `Gennemgang af ${name}` })).toBeVisible();
  await expect(support.locator('[data-verified]')).toContainText('Ja');
  const media = support.getByRole('region', { name: 'Ventende billeder og videoer' });
  await media.getByRole('button', { name: /^Godkend Billede nr\. \d+$/ }).click();
  await expect(media.locator('li[data-media^="picture-"]')).toHaveCount(0);
  await support.getByRole('button', { name: 'Godkend annonce' }).click();
  await expect(support.getByText('Annoncen er godkendt.')).toBeVisible();
  await expect(support.locator('[data-advert-status]')).toHaveText('Aktiv');
  await context.close();
});

test('after the rebuild a visitor opens the advert’s page with its picture', async ({ browser }) => {
  test.setTimeout(4 * 60_000);
  await expect
    .poll(async () => {
      const answer = await fetch(`${stack.url}/annonce/${advertId}/`, { signal: AbortSignal.timeout(10_000), redirect: 'follow' }).catch(() => null);
      return answer?.status === 200 && (await answer.text()).includes(name);
    }, { timeout: 180_000, intervals: [500] })
    .toBe(true);
  const context = await browser.newContext({ baseURL: stack.url, locale: 'da-DK' });
  await passAgeGate(context, stack.url);
  const visitor = await context.newPage();
  await visitor.goto('/escort/');
  const card = visitor.locator(`#main [data-advert-card="${advertId}"]`);
  await expect(card).toBeVisible();
  await card.getByRole('link', { name, exact: true }).first().click();
  await expect(visitor).toHaveURL(new RegExp(`/annonce/[a-z0-9-]+-${advertId}/$`));
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText(name);
  const shown = visitor.locator('#main img[src*="/media/"]').first();
  await expect(shown).toHaveJSProperty('complete', true);
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await context.close();
});

test('started again without an SMS provider, sign-up says so and keeps what was typed', async ({ browser }) => {
  test.setTimeout(4 * 60_000);
  await stack.restart({ SMS_PROVIDER: null, GATEWAYAPI_TOKEN: null, GATEWAYAPI_URL: null, GATEWAYAPI_WEBHOOK_SECRET: null, SMS_SENDER: null });
  expect(readFileSync(stack.logFile, 'utf8')).toContain('NO SMS PROVIDER');
  const before = stack.smtp.received.length;
  const context = await browser.newContext({ baseURL: stack.url, locale: 'da-DK' });
  await passAgeGate(context, stack.url);
  const visitor = await context.newPage();
  await visitor.goto('/create/');
  await islandsReady(visitor);
  const other = `${unique('uden-sms')}@example.invalid`;
  const otherPhone = `6${String(Date.now()).slice(-7)}`;
  await fillCreateForm(visitor, { email: other, phone: otherPhone, name: 'Uden sms' });
  await visitor.getByRole('button', { name: 'Opret konto og annonce' }).click();
  await expect(visitor.getByText('Vi kan ikke sende sms-koder lige nu, så det kan ikke lade sig gøre i øjeblikket.')).toBeVisible();
  await expect(visitor.getByLabel('E-mail')).toHaveValue(other);
  await expect(visitor.getByLabel('Telefonnummer')).toHaveValue(otherPhone);
  // Nothing was made: no sign-up email went out.
  expect(stack.smtp.received.slice(before).filter((m) => m.to.includes(other))).toEqual([]);
  await context.close();
});

test('the server’s log holds none of the journey’s personal data or secrets', () => {
  const log = readFileSync(stack.logFile, 'utf8');
  expect(Object.keys(secrets)).toEqual(expect.arrayContaining(['the SMS code', 'the sign-up link', 'the authenticator secret']));
  for (const [what, value] of Object.entries(secrets)) expect(log.includes(value), `${what} in the server's log`).toBe(false);
});

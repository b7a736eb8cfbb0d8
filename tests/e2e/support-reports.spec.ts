/**
 * Notice and action (issue 6): a visitor reports an advert from its public page as a suspected minor; the
 * report comes first in support's queue, flagged; support locks the advert under a rule with a reason; the
 * advertiser sees the decision (statement of reasons) on the dashboard and appeals; the support user who
 * decided is refused the appeal, another one reverses it; the advertiser sees the outcome and the advert is
 * public again. Uses demo advert 59 (reserved for this file; another public demo advert if 59 is not).
 */
import type { APIRequestContext, Browser, BrowserContext } from '@playwright/test';
import { test, expect, passAgeGate, createSupportUser, signInSupport, signInAsSupportAdmin, type SupportUser } from './fixtures.ts';

const CANDIDATES = [59, 54, 53, 52, 51];

/** The first candidate demo advert that is public now: its id and public address. */
async function publicDemoAdvert(request: APIRequestContext): Promise<{ n: number; url: string; name: string }> {
  for (const n of CANDIDATES) {
    const response = await request.get('/api/frontend/fullprofile', { params: { Id: String(n), Locale: 'da' } });
    if (response.ok()) {
      const profile = (await response.json()) as { url: string; name: string };
      return { n, url: profile.url, name: profile.name };
    }
  }
  throw new Error('No public demo advert among the candidates');
}

async function supportContext(browser: Browser, user: SupportUser, baseURL: string | undefined): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, locale: 'da-DK' });
  const signedIn = await signInSupport(context.request, user);
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return context;
}

test('a report of a suspected minor is decided, the advertiser appeals, and another support user reverses it', async ({
  page,
  browser,
  context,
  baseURL,
  checkA11y,
}) => {
  test.setTimeout(180_000);
  const advert = await publicDemoAdvert(page.request);
  const first = await createSupportUser(baseURL!, { permissions: ['Support'], name: `Første ${Date.now().toString(36)}` });
  const second = await createSupportUser(baseURL!, { permissions: ['Support'], name: `Anden ${Date.now().toString(36)}` });

  // A visitor reports the advert from its public page.
  await passAgeGate(context, baseURL);
  await page.goto(advert.url);
  await page.getByRole('button', { name: 'Anmeld annonce' }).click();
  const dialog = page.getByRole('dialog', { name: 'Anmeld annoncen' });
  await dialog.getByLabel('Mistanke om en mindreårig (under 18 år)').check();
  const details = `Ser meget ung ud på billederne (e2e ${Date.now().toString(36)}).`;
  await dialog.getByLabel('Beskriv, hvad du har set').fill(details);
  await dialog.getByLabel('Jeg anmelder i god tro').check();
  const sent = page.waitForResponse((response) => response.url().endsWith('/api/frontend/reportadvert'));
  await dialog.getByRole('button', { name: 'Send anmeldelse' }).click();
  const reportId = ((await (await sent).json()) as { id: number }).id;
  await expect(dialog.getByRole('status')).toContainText(`nr. ${reportId}`);

  // The first support user finds it among the urgent reports at the top of the queue.
  const supportA = await supportContext(browser, first, baseURL);
  const a = await supportA.newPage();
  await a.goto('/support/content-reports/');
  await expect(a.getByRole('heading', { level: 1, name: 'Anmeldelser af indhold' })).toBeVisible();
  const row = a.locator(`tr[data-report="${reportId}"]`);
  await expect(row).toContainText('Haster');
  await expect(row).toContainText('Mistanke om mindreårig');
  await expect(row).toContainText(advert.name);
  await expect(row).toContainText('Anonym');
  await expect(row.getByRole('cell').nth(2)).toHaveText(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
  // Urgent reports come before all others.
  await expect(a.locator('tbody tr').first()).toHaveAttribute('data-priority', '2');
  await checkA11y(a);

  await row.getByRole('link', { name: 'Mistanke om mindreårig' }).click();
  await expect(a).toHaveURL(new RegExp(`/support/content-reports/${reportId}/$`));
  await expect(a.getByRole('heading', { level: 1, name: `Anmeldelse nr. ${reportId}` })).toBeVisible();
  await expect(a.getByText(details)).toBeVisible();
  await expect(a.getByText('Anmelderen erklærer at anmelde i god tro')).toBeVisible();
  await expect(a.locator('[data-advert-status]')).toHaveText('Aktiv');
  await checkA11y(a);

  // Locking without a rule or reason: both are named, the choice stays.
  await a.getByLabel(/^Lås annoncen/).check();
  await a.getByRole('button', { name: 'Gem afgørelsen' }).click();
  await expect(a.getByText('Nogle obligatoriske felter mangler.')).toBeVisible();
  await expect(a.getByRole('combobox', { name: 'Regel' })).toHaveAttribute('aria-invalid', 'true');
  await expect(a.getByRole('textbox', { name: 'Begrundelse' })).toHaveAttribute('aria-invalid', 'true');
  await expect(a.getByLabel(/^Lås annoncen/)).toBeChecked();

  await a.getByRole('combobox', { name: 'Regel' }).selectOption({ label: 'Forbud mod mindreårige' });
  const reason = 'Billederne tyder på, at personen er under 18 år.';
  await a.getByRole('textbox', { name: 'Begrundelse' }).fill(reason);
  await a.getByRole('button', { name: 'Gem afgørelsen' }).click();
  const confirm = a.getByRole('dialog', { name: 'Vil du låse annoncen?' });
  await expect(confirm).toBeVisible();
  await checkA11y(a);
  await confirm.getByRole('button', { name: 'Ja, lås annoncen' }).click();
  const decision = a.locator('[data-decision]');
  await expect(decision).toContainText('Lås annoncen');
  await expect(decision).toContainText('Forbud mod mindreårige');
  await expect(decision).toContainText(reason);
  await expect(decision).toContainText(first.name);
  await expect(decision).toContainText(/\d+ minut(ter)?/);
  await expect(a.locator('[data-advert-status]')).toHaveText('Låst');
  await checkA11y(a);

  // The advert is no longer public.
  expect((await page.request.get('/api/frontend/fullprofile', { params: { Id: String(advert.n), Locale: 'da' } })).status()).toBe(410);

  // The advertiser sees the decision and appeals.
  const advertiser = await browser.newContext({ baseURL, locale: 'da-DK' });
  const signedIn = await advertiser.request.post('/api/frontend/login', { data: { email: `demo-${advert.n}@example.invalid`, password: 'demo-password' } });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  const b = await advertiser.newPage();
  await b.goto('/backend/dashboard/');
  const decisions = b.getByRole('region', { name: 'Afgørelser om din annonce' });
  const statement = decisions.getByRole('article', { name: 'Annoncen blev låst' }).first();
  await expect(statement).toContainText(reason);
  await expect(statement).toContainText('Forbud mod mindreårige');
  await expect(b.getByRole('link', { name: /^Se afgørelsen/ }).first()).toHaveAttribute('href', '#decisions');
  await checkA11y(b);

  await statement.getByRole('button', { name: /^Klag over afgørelsen/ }).click();
  await statement.getByLabel('Din klage').fill('For kort');
  await statement.getByRole('button', { name: 'Send klagen' }).click();
  await expect(statement.getByText('Skriv mindst 10 tegn.')).toBeVisible();
  await expect(statement.getByLabel('Din klage')).toHaveValue('For kort');
  const appealText = 'Jeg er 29 år, og min alder er bekræftet med legitimation.';
  await statement.getByLabel('Din klage').fill(appealText);
  await statement.getByRole('button', { name: 'Send klagen' }).click();
  await expect(statement.locator('[data-appeal-state="sent"]')).toHaveText(/^Klage sendt \d{2}-\d{2}-\d{4} — afventer afgørelse$/);
  await checkA11y(b);

  // The dashboard counts the appeal and links to the queue.
  await a.goto('/support/dashboard/');
  const appealsCard = a.locator('[data-queue="appeals"]');
  await expect(appealsCard).toContainText('Klager over afgørelser');
  await expect(appealsCard).toHaveAttribute('href', '/support/appeals/');
  await appealsCard.click();
  await expect(a.getByRole('heading', { level: 1, name: 'Klager' })).toBeVisible();
  await checkA11y(a);

  // The support user who locked the advert may not decide the appeal; what they typed stays.
  const statementId = Number(await statement.locator('xpath=ancestor::li[@data-statement]').getAttribute('data-statement'));
  await a.locator(`tr[data-appeal="${statementId}"]`).getByRole('link').click();
  await expect(a.getByRole('heading', { level: 1, name: 'Klage' })).toBeVisible();
  await expect(a.locator('[data-appeal-text]')).toHaveText(appealText);
  await expect(a.locator('[data-original]')).toContainText(first.name);
  await a.getByLabel(/^Omgør afgørelsen/).check();
  await a.getByRole('textbox', { name: 'Begrundelse' }).fill('Jeg omgør min egen afgørelse.');
  await a.getByRole('button', { name: 'Gem afgørelsen' }).click();
  await expect(a.getByRole('alert')).toHaveText('En anden supportbruger skal afgøre denne klage, da du selv traf afgørelsen.');
  await expect(a.getByRole('textbox', { name: 'Begrundelse' })).toHaveValue('Jeg omgør min egen afgørelse.');
  // The appeal's screen at both sizes (the demo has no appeal for the walk of every screen, console.spec.ts).
  await checkA11y(a, { bothSizes: true });

  // Another support user, in English, reverses it.
  const supportB = await supportContext(browser, second, baseURL);
  const c = await supportB.newPage();
  await c.goto('/support/appeals/');
  await c.locator('[data-locale-button="en"]').click();
  await expect(c.getByRole('heading', { level: 1, name: 'Appeals' })).toBeVisible();
  const appealRow = c.locator(`tr[data-appeal="${statementId}"]`);
  await expect(appealRow).toContainText('The advert was locked');
  await expect(appealRow).toContainText('Awaiting a decision');
  await checkA11y(c);
  await appealRow.getByRole('link').click();
  await expect(c.locator('[data-original]')).toContainText('No minors');
  await c.getByLabel(/^Reverse the decision/).check();
  const supportReason = 'The identity check shows the advertiser is an adult.';
  await c.getByRole('textbox', { name: 'Reason' }).fill(supportReason);
  await c.getByRole('button', { name: 'Save the decision' }).click();
  await expect(c.locator('[data-outcome]')).toContainText('The decision was reversed');
  await checkA11y(c);

  // The advert is public again, and the advertiser sees the outcome.
  expect((await page.request.get('/api/frontend/fullprofile', { params: { Id: String(advert.n), Locale: 'da' } })).status()).toBe(200);
  await b.reload();
  const outcome = b.locator(`li[data-statement="${statementId}"] [data-appeal-state="reversed"]`);
  await expect(outcome).toContainText('Din klage er afgjort: afgørelsen er omgjort');
  await expect(outcome).toContainText(supportReason);
  await checkA11y(b);

  await Promise.all([supportA.close(), supportB.close(), advertiser.close()]);
});

test('a report another support user decided meanwhile: the screen says so and shows their decision', async ({ browser, baseURL, request }) => {
  const advert = await publicDemoAdvert(request);
  const first = await createSupportUser(baseURL!, { permissions: ['Support'], name: `Langsom ${Date.now().toString(36)}` });
  const second = await createSupportUser(baseURL!, { permissions: ['Support'], name: `Hurtig ${Date.now().toString(36)}` });
  const reported = await request.post('/api/frontend/reportadvert', {
    data: { AdvertId: advert.n, Reason: 'spam', Details: 'Samme tekst som på mange andre annoncer.', Name: 'Test Anmelder', Email: 'anmelder@example.test', GoodFaith: true },
  });
  expect(reported.status(), await reported.text()).toBe(201);
  const reportId = ((await reported.json()) as { id: number }).id;

  // The first support user opens the report and starts deciding.
  const supportA = await supportContext(browser, first, baseURL);
  const a = await supportA.newPage();
  await a.goto(`/support/content-reports/${reportId}/`);
  await expect(a.getByRole('heading', { level: 1, name: `Anmeldelse nr. ${reportId}` })).toBeVisible();
  await a.getByLabel(/^Ingen handling/).check();
  await a.getByRole('textbox', { name: 'Begrundelse' }).fill('Ikke i strid med betingelserne.');

  // Meanwhile the second one decides it.
  const supportB = await supportContext(browser, second, baseURL);
  const decided = await supportB.request.post('/api/support/decidecontentreport', { data: { Id: reportId, Decision: 'no-action', Reason: 'Set og afvist.' } });
  expect(decided.status(), await decided.text()).toBe(200);

  // The first one's decision is refused in words, and the screen shows the decision that stands.
  await a.getByRole('button', { name: 'Gem afgørelsen' }).click();
  await expect(a.getByText('Sagen er allerede afgjort af en anden supportbruger.')).toBeVisible();
  const decision = a.locator('[data-decision]');
  await expect(decision).toContainText(second.name);
  await expect(decision).toContainText('Set og afvist.');
  await expect(a.getByRole('button', { name: 'Gem afgørelsen' })).toBeHidden();

  await supportA.close();
  await supportB.close();
});

/** Demo adverts for the appeal race below (reserved for it): locked for the test, unlocked after. */
const APPEAL_CANDIDATES = [40, 39, 38];

test('an appeal sent meanwhile from another tab: the form says it was already appealed and shows the appeal', async ({ browser, baseURL, request }) => {
  let n = 0;
  for (const candidate of APPEAL_CANDIDATES) {
    if ((await request.get('/api/frontend/fullprofile', { params: { Id: String(candidate), Locale: 'da' } })).ok()) {
      n = candidate;
      break;
    }
  }
  expect(n, 'a public demo advert among the candidates').toBeGreaterThan(0);
  const support = await browser.newContext({ baseURL, locale: 'da-DK' });
  await signInAsSupportAdmin(support, baseURL);
  const lock = await support.request.post('/api/support/profilestatus', {
    data: { Id: n, Status: 2, Rule: 'terms.identity', Reason: 'Billederne viser ikke annoncøren.' },
  });
  expect(lock.status(), await lock.text()).toBe(200);

  try {
    const advertiser = await browser.newContext({ baseURL, locale: 'da-DK' });
    const signedIn = await advertiser.request.post('/api/frontend/login', { data: { email: `demo-${n}@example.invalid`, password: 'demo-password' } });
    expect(signedIn.ok(), await signedIn.text()).toBe(true);
    const b = await advertiser.newPage();
    await b.goto('/backend/dashboard/');
    const statement = b.getByRole('region', { name: 'Afgørelser om din annonce' }).getByRole('article', { name: 'Annoncen blev låst' }).first();
    await statement.getByRole('button', { name: /^Klag over afgørelsen/ }).click();
    await statement.getByLabel('Din klage').fill('Det er mine egne billeder, taget i år.');

    // The same advertiser appeals from another tab first.
    const statements = (await (await advertiser.request.get('/api/backend/statementsofreasons')).json()) as { id: number; decision: string; appeal: unknown }[];
    const open = statements.find((s) => s.decision === 'advert.locked' && s.appeal === null)!;
    const appealed = await advertiser.request.post('/api/backend/appealstatement', { data: { Id: open.id, Text: 'Klage fra den anden fane.' } });
    expect(appealed.status(), await appealed.text()).toBe(204);

    await statement.getByRole('button', { name: 'Send klagen' }).click();
    await expect(statement.getByText('Du har allerede klaget over denne afgørelse.')).toBeVisible();
    await expect(statement.locator('[data-appeal-state="sent"]')).toBeVisible();
    await advertiser.close();
  } finally {
    await support.request.post('/api/support/profilestatus', { data: { Id: n, Status: 1, Reason: 'Testen er færdig.' } });
    await support.close();
  }
});

/**
 * Advertiser accounts in the browser: /create (account and advert, check your email, the emailed link
 * with the password, the SMS code; in Danish and English), signing out and in, the forgotten-password
 * round trip, restoring a deleted profile, and the refusals a user meets on the way. SMS codes and email links are read from the outbox, as support reads them
 * (GET /api/support/outbox, signed in as support in a request context of its own).
 */
import type { APIRequestContext } from '@playwright/test';
import { visitorTest as test, expect, passAgeGate, islandsReady, unique, supportAdminRequest } from './fixtures.ts';
import {
  CREATE_PASSWORD as PASSWORD,
  CREATE_WORDS,
  chooseFirstPlace,
  confirmSignUpInBrowser,
  createAdvertiser,
  fillCreateForm,
  finishSignUpInBrowser,
  newPhone,
  outboxInbox,
  signUpLink,
} from './advertisers.ts';
import { oneCopenhagenDay, yearsAgo } from '#tests/support/days.ts';
import { lastMessage as lastOutboxMessage, linkIn, smsCode as smsCodeTo } from './outbox.ts';

let support: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  support = await supportAdminRequest(baseURL!);
});
test.afterAll(async () => {
  await support?.dispose();
});

const lastMessage = (to: string, marker: string | RegExp) => lastOutboxMessage(support, to, marker);
const smsCode = (phone: string) => smsCodeTo(support, phone);

/** dd-mm-yyyy of the day `years` years ago (plus `days`). */

test('a new advertiser signs up on /create: check your email, the emailed link and the password, the SMS code, the dashboard; then signs out and in', async ({
  page,
  checkA11y,
}) => {
  // The whole sign-up, with the refusals on the way and an accessibility check on every screen.
  test.setTimeout(120_000);
  const words = CREATE_WORDS.da;
  const email = `${unique('opret')}@example.invalid`;
  const phone = newPhone();
  await page.goto('/create/');
  await islandsReady(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Opret annonce' })).toBeVisible();
  await expect(page.getByText('Mindst 10 tegn.')).toBeVisible();
  await expect(page.getByText('bliver den vist under trans escort')).toBeVisible();
  await expect(page.getByRole('link', { name: 'betingelserne' })).toHaveAttribute('href', '/terms-condition/');
  await checkA11y(page);

  await fillCreateForm(page, { email, phone: `+45 ${phone.slice(0, 4)} ${phone.slice(4)}` });
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();
  await expect(page.getByRole('heading', { name: words.checkEmail })).toBeFocused();
  await expect(page.getByText('Du behøver ikke gøre andet nu')).toBeVisible();
  // Not signed in yet, and sign-in waits for the link: it answers as a wrong password, with a hint.
  expect(((await (await page.request.get('/api/frontend/session')).json()) as { signedIn: boolean }).signedIn).toBe(false);
  const login = await page.context().newPage();
  await login.goto('/login/');
  await islandsReady(login);
  await login.getByLabel('E-mail').fill(email);
  await login.getByLabel('Adgangskode').fill(PASSWORD);
  await login.getByRole('button', { name: 'Log ind' }).click();
  await expect(login.getByRole('alert')).toHaveText(
    'Forkert e-mail eller adgangskode. Har du lige tilmeldt dig, så åbn først linket i den e-mail, vi har sendt dig.',
  );
  await login.close();

  // Step 2: the emailed link and the password; then step 3, the SMS code.
  await confirmSignUpInBrowser(page, outboxInbox(support), email, words, checkA11y);
  await expect(page.getByText(`Vi har sendt en kode på sms til +45 ${phone.replace(/(\d{2})(?=\d)/g, '$1 ')}`)).toBeVisible();
  await checkA11y(page);
  const code = await smsCode(phone);

  // A new code right away is refused for a minute; so is one to a corrected number, at its field.
  await page.getByRole('button', { name: 'Send en ny kode' }).click();
  await expect(page.getByRole('alert')).toHaveText('Vent et øjeblik, før du beder om en ny.');
  await page.getByRole('button', { name: 'Har du skrevet nummeret forkert?' }).click();
  await page.getByLabel('Dit rigtige telefonnummer').fill('123');
  await page.getByRole('button', { name: 'Send kode til det nye nummer' }).click();
  await expect(page.getByText('Skriv et dansk telefonnummer med 8 cifre.')).toBeVisible();
  await page.getByLabel('Dit rigtige telefonnummer').fill(newPhone());
  await page.getByRole('button', { name: 'Send kode til det nye nummer' }).click();
  await expect(page.locator('#create-new-phone-error')).toHaveText('Vent et øjeblik, før du beder om en ny.');
  await page.getByLabel(words.code).fill(code === '111111' ? '222222' : '111111');
  await page.getByRole('button', { name: words.verify }).click();
  await expect(page.getByText('Koden er forkert.')).toBeVisible();

  await finishSignUpInBrowser(page, outboxInbox(support), phone, words);
  const profile = await (await page.request.get('/api/backend/userprofile')).json();
  expect(profile).toMatchObject({ email, emailVerified: true, phoneVerified: true, profileStatus: 0 });

  // The link works once: opened again, it says so and shows the ways on.
  await page.goto((await signUpLink(support, email)).path);
  await islandsReady(page);
  await page.getByLabel(words.password).fill(PASSWORD);
  await page.getByRole('button', { name: words.confirm }).click();
  await expect(page.getByRole('alert')).toHaveText('Linket virker ikke');
  await expect(page.getByRole('link', { name: 'Udfyld formularen igen' })).toHaveAttribute('href', '/create/');
  await checkA11y(page);

  // Sign out, then in again.
  await page.goto('/backend/log-out/');
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await page.goto('/login/');
  await islandsReady(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Adgangskode').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);
});

test('an incomplete /create form says what is missing and keeps what was typed; under 18 is refused; an existing address is never called taken', async ({
  page,
  context,
  baseURL,
  checkA11y,
}) => {
  // Room for the wait before Copenhagen midnight below.
  test.setTimeout(150_000);
  // An existing account (made in the browser's context, then signed out) whose email is then taken.
  const existing = await createAdvertiser(page);
  await context.clearCookies();
  await passAgeGate(context, baseURL);

  await page.goto('/create/');
  await islandsReady(page);
  const email = `${unique('halv')}@example.invalid`;
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Navn i annoncen').fill('Maja');
  await page.getByLabel('Telefonnummer').fill('20 30 40 50');
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();

  await expect(page.getByRole('alert')).toHaveText('Nogle obligatoriske felter mangler.');
  await expect(page.locator('#create-password-error')).toHaveText('Skal udfyldes.');
  await expect(page.locator('#create-kind-error')).toHaveText('Vælg escort eller thaimassage.');
  await expect(page.locator('#create-gender-error')).toHaveText('Vælg kvinde eller transkønnet.');
  await expect(page.locator('#create-region-error')).toHaveText('Vælg en region.');
  await expect(page.locator('#create-birth-error')).toHaveText('Skal udfyldes.');
  await expect(page.locator('#create-terms-error')).toContainText('Du skal bekræfte, at du er mindst 18 år');
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await expect(page.getByLabel('Navn i annoncen')).toHaveValue('Maja');
  await expect(page.getByLabel('Telefonnummer')).toHaveValue('20 30 40 50');
  await expect(page.getByLabel('Adgangskode')).toHaveAttribute('aria-invalid', 'true');
  await checkA11y(page);

  // Under 18 (one day short of the 18th birthday): refused with a clear message; the rest is kept. The date
  // is made and checked within one Copenhagen day (after midnight it would be the birthday itself).
  await oneCopenhagenDay(60_000);
  await fillCreateForm(page, { email, phone: newPhone(), dateOfBirth: yearsAgo(18, 1) });
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();
  await expect(page.locator('#create-birth-error')).toHaveText('Du skal være mindst 18 år for at oprette en annonce.');
  await expect(page.getByLabel('Navn i annoncen')).toHaveValue('Sofie');

  // A name with a word that suggests a minor: refused at the name, everything else kept.
  await page.getByLabel('Fødselsdato').fill('15-04-1995');
  await page.getByLabel('E-mail').fill(`${unique('ord')}@example.invalid`);
  await page.getByLabel('Navn i annoncen').fill('Skolepige Sofie');
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();
  await expect(page.locator('#create-name-error')).toHaveText('Teksten indeholder ord, der ikke er tilladt her, fordi de kan pege på en mindreårig.');
  await expect(page.getByLabel('Fødselsdato')).toHaveValue('15-04-1995');

  // An address that has an account already (issue 15): never "taken"; the screen is the one every sign-up
  // gets, and only its owner reads, by email, that someone tried and how to sign in or reset the password.
  await page.getByLabel('Navn i annoncen').fill('Sofie');
  await page.getByLabel('E-mail').fill(existing.email);
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();
  await expect(page.getByRole('heading', { name: CREATE_WORDS.da.checkEmail })).toBeFocused();
  await expect(page.getByText(CREATE_WORDS.da.sentTo(existing.email))).toBeVisible();
  await expect(page.getByText(CREATE_WORDS.da.lifetime)).toBeVisible();
  await expect(page.getByText('Der findes allerede en konto')).toHaveCount(0);
  await expect(page.locator('#create-email-error')).toHaveCount(0);
  await checkA11y(page);
  const notice = await lastMessage(existing.email, 'forsøgt at oprette en konto');
  expect(notice.subject).toContain('Nogen forsøgte at oprette en konto med din e-mailadresse');
  expect(linkIn(notice, '/login/forgot/')).toBe('/login/forgot/');
  // Nothing was signed in: the visitor is still a visitor.
  expect(((await (await page.request.get('/api/frontend/session')).json()) as { signedIn: boolean }).signedIn).toBe(false);
});

test('sign-up on a phone: region and city one above the other, a picture button in the page’s language, and the email sent again (issue 31, item 7)', async ({
  page,
  checkA11y,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const email = `${unique('telefon')}@example.invalid`;
  await page.goto('/create/');
  await islandsReady(page);
  await chooseFirstPlace(page, { region: 'Region', city: 'By' });
  const region = (await page.getByLabel('Region').boundingBox())!;
  const city = (await page.getByLabel('By').boundingBox())!;
  // Stacked, each the width of the form: a region's name is not cut off.
  expect(city.y).toBeGreaterThan(region.y + region.height);
  expect(region.width).toBeGreaterThan(300);
  expect(await page.getByLabel('Region').evaluate((select: HTMLSelectElement) => select.scrollWidth <= select.clientWidth)).toBe(true);
  // The picture chooser: our own button in Danish; the browser's "Choose Files" is not shown.
  const chooser = page.locator('label[for$="-files"]');
  await expect(chooser).toBeVisible();
  await expect(chooser).toHaveText('Vælg billeder');
  await expect(page.locator('input[type="file"]')).not.toBeInViewport();
  await checkA11y(page);

  await fillCreateForm(page, { email, phone: newPhone() });
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();
  await expect(page.getByRole('heading', { name: CREATE_WORDS.da.checkEmail })).toBeFocused();
  const first = await signUpLink(support, email);
  // A new link goes out at most once a minute: the button waits, and says how long.
  const again = page.getByRole('button', { name: 'Send e-mailen igen' });
  await expect(again).toBeDisabled();
  await expect(page.locator('[data-send-again-wait]')).toHaveText(/^Du kan sende e-mailen igen om \d+ sekunder\.$/);
  await expect(again).toBeEnabled({ timeout: 75_000 });
  await again.click();
  await expect(page.locator('[data-email-sent-again]')).toHaveText(`Vi har sendt en ny e-mail til ${email}. Brug linket i den nyeste.`);
  await expect.poll(async () => (await signUpLink(support, email)).path).not.toBe(first.path);
  await checkA11y(page);
  // The newest link finishes the sign-up.
  await page.goto((await signUpLink(support, email)).path);
  await expect(page.getByRole('heading', { name: CREATE_WORDS.da.confirmHeading })).toBeFocused();
});

test('a signed-in advertiser opening /create is told they already have an account', async ({ page, checkA11y }) => {
  await createAdvertiser(page);
  await page.goto('/create/');
  await expect(page.getByText('Du har allerede en konto, og du er logget ind.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Gå til din annonceprofil' })).toHaveAttribute('href', '/backend/dashboard/');
  await expect(page.getByLabel('E-mail')).toHaveCount(0);
  await checkA11y(page);
});

test('the English /en/create/ signs up in English: check your email, the link and the password, the SMS code, the dashboard', async ({ page, checkA11y }) => {
  const words = CREATE_WORDS.en;
  await page.goto('/en/create/');
  await islandsReady(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Create an advert' })).toBeVisible();
  await page.getByRole('button', { name: 'Create account and advert' }).click();
  await expect(page.getByRole('alert')).toHaveText('Some required fields are missed.');
  await expect(page.locator('#create-email-error')).toHaveText('Required.');
  await checkA11y(page);

  const email = `${unique('create-en')}@example.invalid`;
  const phone = newPhone();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('radio', { name: 'Thai massage' }).check();
  await page.getByRole('radio', { name: 'Transgender' }).check();
  await page.getByLabel('Name in the advert').fill('Lina');
  await page.getByLabel('Phone number').fill(phone);
  await chooseFirstPlace(page, { region: 'Region', city: 'City' });
  await page.getByLabel('Date of birth').fill('01-02-1990');
  await page.getByRole('checkbox', { name: /at least 18 years old/ }).check();
  await page.getByRole('button', { name: 'Create account and advert' }).click();

  // The link in the English email opens the English screen.
  await confirmSignUpInBrowser(page, outboxInbox(support), email, words, checkA11y);
  await expect(page).toHaveURL(/\/en\/create\/$/);
  expect((await lastMessage(`+45${phone}`, /\b\d{6}\b/)).body).toContain('Your code for');
  await finishSignUpInBrowser(page, outboxInbox(support), phone, words);
});

test('a forgotten password: ask for a link, set a new password, sign in with it (the old one is refused)', async ({
  page,
  context,
  baseURL,
  checkA11y,
}) => {
  const advertiser = await createAdvertiser(page);
  await context.clearCookies();
  await passAgeGate(context, baseURL);

  await page.goto('/login/');
  await islandsReady(page);
  await page.getByRole('link', { name: 'Glemt adgangskode?' }).click();
  await expect(page).toHaveURL(/\/login\/forgot\/$/);
  await islandsReady(page);
  await checkA11y(page);

  // An unknown email gets the same answer as a known one.
  await page.getByLabel('E-mail').fill(`${unique('ukendt')}@example.invalid`);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('status')).toContainText('Hvis der findes en konto med');
  await page.reload();
  await islandsReady(page);
  await page.getByLabel('E-mail').fill(advertiser.email);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('status')).toContainText(`Hvis der findes en konto med ${advertiser.email}`);

  const mail = await lastMessage(advertiser.email, '/login/change/');
  const changePath = linkIn(mail, '/login/change/');
  await page.goto(changePath);
  await islandsReady(page);
  await checkA11y(page);
  const newPassword = `Ny-og-hemmelig-${Math.random().toString(36).slice(2, 8)}`;
  await page.getByLabel('Ny adgangskode', { exact: true }).fill(newPassword);
  await page.getByLabel('Gentag den nye adgangskode').fill(`${newPassword}x`);
  await page.getByRole('button', { name: 'Gem ny adgangskode' }).click();
  await expect(page.locator('#change-repeat-error')).toHaveText('De to adgangskoder er ikke ens.');
  await page.getByLabel('Gentag den nye adgangskode').fill(newPassword);
  await page.getByRole('button', { name: 'Gem ny adgangskode' }).click();
  await expect(page.getByRole('status')).toContainText('Din adgangskode er ændret.');
  await checkA11y(page);

  // The link works once.
  await page.goto(changePath);
  await islandsReady(page);
  await page.getByLabel('Ny adgangskode', { exact: true }).fill(`${newPassword}-igen`);
  await page.getByLabel('Gentag den nye adgangskode').fill(`${newPassword}-igen`);
  await page.getByRole('button', { name: 'Gem ny adgangskode' }).click();
  await expect(page.getByRole('alert')).toContainText('Linket er ugyldigt eller udløbet. Bed om et nyt.');
  await expect(page.getByRole('link', { name: 'Bed om et nyt link' })).toHaveAttribute('href', '/login/forgot/');

  await page.goto('/login/');
  await islandsReady(page);
  await page.getByLabel('E-mail').fill(advertiser.email);
  await page.getByLabel('Adgangskode').fill(advertiser.password);
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page.getByRole('alert')).toContainText('Forkert e-mail eller adgangskode.');
  await page.getByLabel('Adgangskode').fill(newPassword);
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);
});

test('a deleted profile can be restored from the sign-in page within 30 days', async ({ page, checkA11y }) => {
  const advertiser = await createAdvertiser(page);
  const deleted = await page.request.post('/api/backend/deleteuser', { data: { Password: advertiser.password } });
  expect(deleted.status()).toBe(204);

  await page.goto('/login/');
  await islandsReady(page);
  await page.getByLabel('E-mail').fill(advertiser.email);
  await page.getByLabel('Adgangskode').fill(advertiser.password);
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page.getByRole('heading', { name: 'Din profil er slettet' })).toBeFocused();
  await checkA11y(page);
  await page.getByRole('button', { name: 'Gendan min profil' }).click();
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);
  const profile = await (await page.request.get('/api/backend/userprofile')).json();
  expect(profile).toMatchObject({ email: advertiser.email, profileStatus: 0 });
});

test('the sign-in button waits for the form to be ready: a click before it cannot post the password to the page', async ({ page, context, baseURL }) => {
  const advertiser = await createAdvertiser(page);
  await context.clearCookies();
  await passAgeGate(context, baseURL);
  // The form's code arrives late (a slow connection).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_astro/LoginForm.*.js', async (route) => {
    await held;
    await route.continue();
  });
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/login/') posts.push(request.url());
  });
  await page.goto('/login/');
  const button = page.getByRole('button', { name: 'Log ind' });
  await expect(button).toBeDisabled();
  // What is typed meanwhile is kept, and Enter does not send it anywhere.
  await page.getByLabel('E-mail').fill(advertiser.email);
  await page.getByLabel('Adgangskode').fill(advertiser.password);
  await page.getByLabel('Adgangskode').press('Enter');
  await expect(page).toHaveURL(/\/login\/$/);

  release();
  await islandsReady(page);
  await expect(button).toBeEnabled();
  await expect(page.getByLabel('E-mail')).toHaveValue(advertiser.email);
  await button.click();
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);
  expect(posts).toEqual([]);
});

/**
 * A fresh advertiser for a browser test, made as a person signs up: the account and its advert draft
 * (status New, not public) through the real `createprofile` call with the page's own request context, the
 * sign-up link read from the outbox (as support reads it), and `confirmsignup` with the password, so the
 * browser is signed in as that advertiser afterwards (email confirmed, phone not yet). Tests that change
 * an advert use one of these (or a demo advert reserved for them), never an advert another test looks at.
 */
import { test, type APIRequestContext, type Page } from '@playwright/test';
import { expect, supportAdminRequest, unique } from './fixtures.ts';
import { lastMessage, linkIn, smsCode } from './outbox.ts';

/** `phoneVerificationId`: the SMS code confirmsignup sent (codeverification's `Id`). */
export type NewAdvertiser = { email: string; password: string; name: string; phone: string; regionId: number; cityId: number; phoneVerificationId: number };

type City = { id: number; regionId: number };

export async function createAdvertiser(page: Page, overrides: Partial<{ name: string; kind: 0 | 1; gender: 1 | 5; locale: 'da' | 'en' }> = {}): Promise<NewAdvertiser> {
  const cities = (await (await page.request.get('/api/frontend/searchpagecities')).json()) as City[];
  const city = cities[0]!;
  const advertiser: NewAdvertiser = {
    email: `${unique('advertiser')}@example.invalid`,
    password: `Lang-og-sjælden-${Math.random().toString(36).slice(2, 10)}`,
    name: overrides.name ?? 'Testannonce',
    phone: newPhone(),
    regionId: city.regionId,
    cityId: city.id,
    phoneVerificationId: 0,
  };
  const response = await page.request.post('/api/frontend/createprofile', {
    data: {
      Email: advertiser.email,
      Password: advertiser.password,
      Kind: overrides.kind ?? 0,
      Gender: overrides.gender ?? 1,
      Name: advertiser.name,
      Phone: advertiser.phone,
      RegionId: advertiser.regionId,
      CityId: advertiser.cityId,
      DateOfBirth: '01-01-1990',
      AcceptTerms: true,
      ...(overrides.locale ? { Locale: overrides.locale } : {}),
    },
  });
  if (response.status() !== 202) throw new Error(`createprofile answered ${response.status()}: ${await response.text()}`);
  const support = await supportAdminRequest(test.info().project.use.baseURL!);
  try {
    const { path } = await signUpLink(support, advertiser.email);
    const token = new URL(path, 'http://site.invalid').searchParams.get('confirm');
    const confirmed = await page.request.post('/api/frontend/confirmsignup', { data: { Token: token, Password: advertiser.password } });
    if (!confirmed.ok()) throw new Error(`confirmsignup answered ${confirmed.status()}: ${await confirmed.text()}`);
    advertiser.phoneVerificationId = ((await confirmed.json()) as { phoneVerificationId: number }).phoneVerificationId;
  } finally {
    await support.dispose();
  }
  return advertiser;
}

/**
 * Confirms the new advertiser's phone number with the code sign-up sent (read from the outbox) as the
 * sign-up's last step does (codeverification), for a test that needs a complete checklist.
 */
export async function verifyPhoneByApi(page: Page, advertiser: Pick<NewAdvertiser, 'phone' | 'phoneVerificationId'>): Promise<void> {
  const id = advertiser.phoneVerificationId;
  const support = await supportAdminRequest(test.info().project.use.baseURL!);
  try {
    const code = await smsCode(support, advertiser.phone);
    const verified = await page.request.get('/api/frontend/codeverification', { params: { Id: String(id), Code: code } });
    if (verified.status() !== 204) throw new Error(`codeverification answered ${verified.status()}: ${await verified.text()}`);
  } finally {
    await support.dispose();
  }
}

/** The newest sign-up email to `email`: its subject, and its link's path and query (/create/?confirm=… or /en/create/?confirm=…). */
export async function signUpLink(support: APIRequestContext, email: string): Promise<{ subject: string | null; path: string }> {
  const mail = await lastMessage(support, email, '/create/?confirm=');
  expect(mail.channel).toBe('email');
  return { subject: mail.subject, path: linkIn(mail, '/create/?confirm=') };
}

/**
 * Where a browser test reads what the site sent a person: the outbox, as support reads it (`outboxInbox`),
 * or in the production journey the SMTP and SMS stand-ins the live adapters sent to (tests/production/).
 */
export type Inbox = {
  /** The newest sign-up email to `email`: its subject, and its link's path and query. */
  signUpLink: (email: string) => Promise<{ subject: string | null; path: string }>;
  /** The 6-digit code of the newest SMS to a Danish number (8 digits, without +45). */
  smsCode: (phone: string) => Promise<string>;
};

/** The outbox as an Inbox, read with a support request context (`supportAdminRequest`). */
export const outboxInbox = (support: APIRequestContext): Inbox => ({
  signUpLink: (email) => signUpLink(support, email),
  smsCode: (phone) => smsCode(support, phone),
});

/** This worker process's numbers so far (see `newPhone`). */
let phonesMade = 0;
/** Per worker process: a number of its own against a server that keeps its data from earlier runs (E2E_BASE_URL). */
const phoneSeries = Math.floor(Math.random() * 500);

/**
 * A Danish mobile number (8 digits) no other test of the run has, and no demo data: the demo seed's adverts
 * have numbers beginning with 2, its blacklists 3 and its reviews 4 (src/server/db/seed/seed-demo.ts), and
 * the tests' fixed numbers begin with 2 or 3. These are made of, in order: a series of this worker process
 * (5–9 and two digits, at random: only so that a server kept from an earlier run rarely has the number),
 * the worker's index (test.info().workerIndex: unique to the worker process within the run, across both
 * projects, also after a restart) and a count of this worker's numbers. Workers run one test at a time, so
 * two tests never get the same number.
 */
export function newPhone(): string {
  const worker = test.info().workerIndex;
  phonesMade += 1;
  if (worker > 99 || phonesMade > 999) throw new Error(`newPhone: worker ${worker}, number ${phonesMade} is beyond the numbers it can make`);
  return `${5 + Math.floor(phoneSeries / 100)}${String(phoneSeries % 100).padStart(2, '0')}${String(worker).padStart(2, '0')}${String(phonesMade).padStart(3, '0')}`;
}

/** The password `fillCreateForm` types. */
export const CREATE_PASSWORD = 'Sommer ved vandet 2026';

/** Chooses the first region and the first of its cities once their lists have loaded. */
export async function chooseFirstPlace(page: Page, labels: { region: string; city: string }): Promise<void> {
  const region = page.getByLabel(labels.region);
  await expect(region.locator('option')).not.toHaveCount(1);
  await region.selectOption({ index: 1 });
  const city = page.getByLabel(labels.city);
  await expect(city.locator('option')).not.toHaveCount(1);
  await city.selectOption({ index: 1 });
}

/** Fills the whole Danish /create form (an escort, a woman, in the first region's first city). */
export async function fillCreateForm(page: Page, account: { email: string; phone: string; dateOfBirth?: string; name?: string }): Promise<void> {
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Adgangskode').fill(CREATE_PASSWORD);
  await page.getByRole('radio', { name: 'Escort' }).check();
  await page.getByRole('radio', { name: 'Kvinde' }).check();
  await page.getByLabel('Navn i annoncen').fill(account.name ?? 'Sofie');
  await page.getByLabel('Telefonnummer').fill(account.phone);
  await chooseFirstPlace(page, { region: 'Region', city: 'By' });
  await page.getByLabel('Fødselsdato').fill(account.dateOfBirth ?? '15-04-1995');
  await page.getByRole('checkbox', { name: /mindst 18 år/ }).check();
}

/** What /create says in each language, for the browser tests of the sign-up. */
export const CREATE_WORDS = {
  da: {
    checkEmail: 'Tjek din e-mail',
    sentTo: (email: string) => `Vi har sendt en e-mail til ${email}. Åbn linket i den`,
    lifetime: 'Linket virker i 24 timer og kan bruges én gang.',
    subject: 'Bekræft din tilmelding',
    confirmHeading: 'Gør din tilmelding færdig',
    password: 'Din adgangskode',
    confirm: 'Bekræft og fortsæt',
    wrongPassword: 'Adgangskoden er forkert.',
    phoneHeading: 'Bekræft dit telefonnummer',
    code: 'Kode fra sms',
    verify: 'Bekræft nummer',
    doneHeading: 'Din konto er klar',
    phoneDone: 'Tak – dit telefonnummer er bekræftet.',
    dashboard: 'Gå til din annonceprofil',
  },
  en: {
    checkEmail: 'Check your email',
    sentTo: (email: string) => `We have sent an email to ${email}. Open the link in it`,
    lifetime: 'The link works for 24 hours and can be used once.',
    subject: 'Confirm your sign-up',
    confirmHeading: 'Finish your sign-up',
    password: 'Your password',
    confirm: 'Confirm and continue',
    wrongPassword: 'The password is wrong.',
    phoneHeading: 'Confirm your phone number',
    code: 'Code from the text message',
    verify: 'Confirm number',
    doneHeading: 'Your account is ready',
    phoneDone: 'Thank you – your phone number is confirmed.',
    dashboard: 'Go to your advertiser dashboard',
  },
} as const;

export type CreateWords = (typeof CREATE_WORDS)[keyof typeof CREATE_WORDS];

/**
 * /create after its form was sent with CREATE_PASSWORD, in the page's language (`words`): the
 * check-your-email screen, the emailed link (read from the inbox) opened in the page, a wrong password
 * refused at its field and kept, then the right one: the SMS step. `checkA11y` runs on each new screen.
 */
export async function confirmSignUpInBrowser(
  page: Page,
  inbox: Inbox,
  email: string,
  words: CreateWords,
  checkA11y: (page: Page) => Promise<void> = async () => {},
): Promise<void> {
  await expect(page.getByRole('heading', { name: words.checkEmail })).toBeFocused();
  await expect(page.getByText(words.sentTo(email))).toBeVisible();
  await expect(page.getByText(words.lifetime)).toBeVisible();
  await checkA11y(page);

  const mail = await inbox.signUpLink(email);
  expect(mail.subject).toContain(words.subject);
  await page.goto(mail.path);
  await expect(page.getByRole('heading', { name: words.confirmHeading })).toBeFocused();
  await checkA11y(page);
  const password = page.getByLabel(words.password);
  await password.fill('not the password I chose');
  await page.getByRole('button', { name: words.confirm }).click();
  await expect(page.locator('#create-confirm-password-error')).toHaveText(words.wrongPassword);
  await expect(password).toHaveValue('not the password I chose');
  await expect(password).toBeFocused();
  await password.fill(CREATE_PASSWORD);
  await page.getByRole('button', { name: words.confirm }).click();
  await expect(page.getByRole('heading', { name: words.phoneHeading })).toBeFocused();
  // The link is used up: its token leaves the address bar.
  await expect(page).toHaveURL((url) => url.pathname.endsWith('/create/') && url.search === '');
}

/** /create's SMS step with the code from the inbox, then the last screen and on to the dashboard. */
export async function finishSignUpInBrowser(page: Page, inbox: Inbox, phone: string, words: CreateWords): Promise<void> {
  await page.getByLabel(words.code).fill(await inbox.smsCode(phone));
  await page.getByRole('button', { name: words.verify }).click();
  await expect(page.getByRole('heading', { name: words.doneHeading })).toBeFocused();
  await expect(page.getByText(words.phoneDone)).toBeVisible();
  await page.getByRole('link', { name: words.dashboard }).click();
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);
}

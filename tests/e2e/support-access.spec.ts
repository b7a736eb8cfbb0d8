/**
 * Support access in the browser (issue 6): Administration waits for two-step sign-in (the notice, the
 * setup from the screen with the secret read off it), the users screens (create, refusals at their
 * fields, the unsaved-changes question, remove), a removed permission or a reset two-step ending the
 * user's session at their next navigation, the code step of the login, and the forgotten password from the
 * email link (in English). Codes are computed as an authenticator app would (tests/support/totp.ts).
 */
import { request as playwrightRequest } from '@playwright/test';
import { codeAt, currentStep, wrongCode } from '../support/totp.ts';
import { test, expect, createSupportUser, nextTotpCode, signInAsSupportAdmin, signInSupport, supportAdminRequest, unique } from './fixtures.ts';

test('Administration waits for two-step sign-in: the notice, the setup on the screen, then users are managed', async ({ page, browser, baseURL, checkA11y }) => {
  test.setTimeout(180_000);
  const admin = await createSupportUser(baseURL!, { permissions: ['SEO', 'Administration'] });
  await page.goto('/support/login/');
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Adgangskode').fill(admin.password);
  await page.getByRole('button', { name: 'Log ind' }).click();

  // Without two-step sign-in Administration is left out: the first SEO page, with the notice.
  await expect(page).toHaveURL(/\/support\/landing-pages\/$/);
  const notice = page.locator('[data-two-factor-notice]');
  await expect(notice).toContainText('Administration kræver totrinsbekræftelse');
  const nav = page.getByRole('navigation', { name: 'Menu for kundeservice' });
  await expect(nav.getByRole('link', { name: 'Landingssider' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Brugere' })).toHaveCount(0);
  await checkA11y(page);
  await page.goto('/support/users/');
  await expect(page).toHaveURL(/\/support\/landing-pages\/$/);

  // The setup: QR code and the secret in groups of four; a wrong code, then the app's code.
  await notice.getByRole('link', { name: 'Slå det til' }).click();
  await expect(page).toHaveURL(/\/support\/two-factor\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Totrinsbekræftelse' })).toBeVisible();
  const status = page.locator('[data-two-factor-status]');
  await expect(status).toHaveText('Totrinsbekræftelse er slået fra.');
  // The session alone is not enough: the password first; a wrong one is refused at its field, and kept.
  await expect(page.getByText('bliver du logget ud alle andre steder', { exact: false })).toBeVisible();
  const password = page.getByLabel('Din adgangskode');
  await password.fill('not-the-password-at-all');
  await page.getByRole('button', { name: 'Slå totrinsbekræftelse til' }).click();
  await expect(page.locator('#two-factor-password-error')).toHaveText('Adgangskoden er forkert.');
  await expect(password).toHaveValue('not-the-password-at-all');
  await password.fill(admin.password);
  await page.getByRole('button', { name: 'Slå totrinsbekræftelse til' }).click();
  await expect(page.getByRole('img', { name: 'QR-kode til din godkendelsesapp' })).toBeVisible();
  const shown = (await page.locator('[data-two-factor-secret]').textContent()) ?? '';
  expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  const secret = shown.replace(/\s/g, '');
  await checkA11y(page);
  const code = page.getByLabel('Kode fra din godkendelsesapp');
  await code.fill(wrongCode(secret));
  await page.getByRole('button', { name: 'Bekræft og slå til' }).click();
  await expect(page.getByText('Koden er forkert eller allerede brugt.', { exact: false })).toBeVisible();
  admin.totpSecret = secret;
  await code.fill(await nextTotpCode(admin));
  await page.getByRole('button', { name: 'Bekræft og slå til' }).click();
  await expect(status).toHaveText('Totrinsbekræftelse er slået til.');
  // The profile is fetched again: Administration opens, and it cannot be turned off while it does.
  await expect(nav.getByRole('link', { name: 'Brugere' })).toBeVisible();
  await expect(page.getByText('Totrinsbekræftelse kan ikke slås fra, så længe din bruger har Administration.')).toBeVisible();
  await checkA11y(page);

  // The list, searched.
  await nav.getByRole('link', { name: 'Brugere' }).click();
  await expect(page).toHaveURL(/\/support\/users\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Brugere' })).toBeVisible();
  await expect(notice).toHaveCount(0);
  await page.getByLabel('Søg efter navn eller e-mail').fill(admin.email);
  await page.getByRole('button', { name: 'Søg' }).click();
  await expect(page).toHaveURL(/\/support\/users\/\?text=/);
  const adminRow = page.locator(`[data-support-user="${admin.email}"]`);
  await expect(adminRow).toContainText('SEO, Administration');
  await expect(adminRow).toContainText('Til');
  await expect(adminRow).toContainText(/\d{2}-\d{2}-\d{4} \d{2}:\d{2}/);
  await expect(page.locator('[data-support-user]')).toHaveCount(1);
  await checkA11y(page);

  // A Support-only user, made with the screen.
  await page.getByRole('link', { name: 'Ny bruger' }).click();
  await expect(page).toHaveURL(/\/support\/users\/new\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ny bruger' })).toBeVisible();
  await page.getByRole('button', { name: 'Opret bruger' }).click();
  await expect(page.getByText('Nogle obligatoriske felter mangler.')).toBeVisible();
  await checkA11y(page);
  const staff = { name: `Supporter ${unique('s')}`, email: `${unique('staff')}@example.test`, password: 'Staff-password-long-enough' };
  await page.getByLabel('Navn').fill(staff.name);
  await page.getByLabel('E-mail').fill(staff.email);
  await page.getByRole('checkbox', { name: /^Support/ }).check();
  await page.getByLabel('Adgangskode').fill(staff.password);
  await page.getByRole('button', { name: 'Opret bruger' }).click();
  await expect(page).toHaveURL(/\/support\/users\/\d+\/$/);
  await expect(page.getByText('Brugeren er oprettet.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: staff.name })).toBeVisible();
  await expect(page.getByText('Har aldrig logget ind.')).toBeVisible();
  await checkA11y(page);
  const staffPath = new URL(page.url()).pathname;

  // The same email again is refused at its field, and what was typed stays.
  await page.goto('/support/users/new/');
  await page.getByLabel('Navn').fill('Another one');
  await page.getByLabel('E-mail').fill(staff.email);
  await page.getByRole('checkbox', { name: /^SEO/ }).check();
  await page.getByLabel('Adgangskode').fill(staff.password);
  await page.getByRole('button', { name: 'Opret bruger' }).click();
  await expect(page.locator('#user-email-error')).toHaveText('Er allerede i brug.');
  await expect(page.getByLabel('Navn')).toHaveValue('Another one');
  // Leaving the changed form asks first.
  page.once('dialog', (dialog) => void dialog.dismiss());
  await nav.getByRole('link', { name: 'Brugere' }).click();
  await expect(page).toHaveURL(/\/support\/users\/new\/$/);
  page.once('dialog', (dialog) => void dialog.accept());
  await nav.getByRole('link', { name: 'Brugere' }).click();
  await expect(page).toHaveURL(/\/support\/users\/$/);

  // The new user signs in (no code step) and sees only the Support screens.
  const staffContext = await browser.newContext({ baseURL });
  const staffPage = await staffContext.newPage();
  await staffPage.goto('/support/login/');
  await staffPage.getByLabel('E-mail').fill(staff.email);
  await staffPage.getByLabel('Adgangskode').fill(staff.password);
  await staffPage.getByRole('button', { name: 'Log ind' }).click();
  await expect(staffPage).toHaveURL(/\/support\/dashboard\/$/);
  const staffNav = staffPage.getByRole('navigation', { name: 'Menu for kundeservice' });
  await expect(staffNav.getByRole('link', { name: 'Ordrer' })).toBeVisible();
  await expect(staffNav.getByRole('link', { name: 'Landingssider' })).toHaveCount(0);
  await expect(staffNav.getByRole('link', { name: 'Brugere' })).toHaveCount(0);
  await expect(staffPage.locator('[data-two-factor-notice]')).toHaveCount(0);

  // The admin takes Support away (SEO instead): the user's next navigation goes to the login screen.
  await page.goto(staffPath);
  await page.getByRole('checkbox', { name: /^Support/ }).uncheck();
  await page.getByRole('checkbox', { name: /^SEO/ }).check();
  await page.getByRole('button', { name: 'Gem' }).click();
  await expect(page.getByText('Dine ændringer er gemt.')).toBeVisible();
  await staffNav.getByRole('link', { name: 'Ordrer' }).click();
  await expect(staffPage).toHaveURL(/\/support\/login\/\?redirectTo=%2Fsupport%2Forders%2F$/);
  await staffContext.close();

  // The admin cannot take their own Administration; the form keeps the change.
  await page.goto('/support/users/');
  await page.getByLabel('Søg efter navn eller e-mail').fill(admin.email);
  await page.getByRole('button', { name: 'Søg' }).click();
  await adminRow.getByRole('link', { name: admin.name }).click();
  await page.getByRole('checkbox', { name: /^Administration/ }).uncheck();
  await page.getByRole('button', { name: 'Gem' }).click();
  await expect(page.locator('#user-permissions-error')).toHaveText('Det kan du ikke gøre ved din egen bruger.');
  await expect(page.getByRole('checkbox', { name: /^Administration/ })).not.toBeChecked();
  page.once('dialog', (dialog) => void dialog.accept());

  // Remove the new user, after a question.
  await page.goto(staffPath);
  await page.getByRole('button', { name: 'Fjern bruger' }).click();
  const question = page.getByRole('dialog', { name: 'Fjern brugeren?' });
  await expect(question).toContainText(staff.email);
  await checkA11y(page);
  await question.getByRole('button', { name: 'Fjern', exact: true }).click();
  await expect(page).toHaveURL(/\/support\/users\/$/);
  await expect(page.getByText(`${staff.name} er fjernet.`)).toBeVisible();
  await page.getByLabel('Søg efter navn eller e-mail').fill(staff.email);
  await page.getByRole('button', { name: 'Søg' }).click();
  await expect(page.getByText('Ingen brugere passer til søgningen.')).toBeVisible();
});

test('the login asks for the authenticator code; a reset of two-step sign-in ends the session', async ({ page, browser, baseURL, checkA11y }) => {
  // Codes work once: the sign-ins here wait for new 30-second steps of the authenticator.
  test.setTimeout(120_000);
  const user = await createSupportUser(baseURL!, { permissions: ['Support'], twoFactor: true });
  await page.goto('/support/login/');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Adgangskode').fill(user.password);
  await page.getByRole('button', { name: 'Log ind' }).click();

  // The code step keeps email and password.
  const code = page.getByLabel('Kode fra din godkendelsesapp');
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await expect(page.getByLabel('E-mail')).toHaveValue(user.email);
  await expect(page.getByLabel('Adgangskode')).toHaveValue(user.password);
  await checkA11y(page);
  await code.fill(wrongCode(user.totpSecret!));
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page.locator('#support-login-code-error')).toHaveText('Koden er forkert eller allerede brugt. Vent på en ny kode i appen, og prøv igen.');
  await checkA11y(page);
  await code.fill(await nextTotpCode(user));
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page).toHaveURL(/\/support\/dashboard\/$/);

  // A used code does not sign in again.
  const used = await page.request.post('/api/support/login', {
    data: { email: user.email, password: user.password, code: codeAt(user.totpSecret!, user.lastStep!) },
  });
  expect(used.status()).toBe(401);

  // An administrator resets the user's two-step sign-in.
  const adminContext = await browser.newContext({ baseURL });
  await signInAsSupportAdmin(adminContext, baseURL);
  const adminPage = await adminContext.newPage();
  await adminPage.goto(`/support/users/${user.id}/`);
  await expect(adminPage.getByRole('heading', { level: 1, name: user.name })).toBeVisible();
  await expect(adminPage.locator('[data-user-two-factor]')).toHaveText('Slået til.');
  await adminPage.getByRole('button', { name: 'Nulstil totrinsbekræftelse' }).click();
  const question = adminPage.getByRole('dialog', { name: 'Nulstil totrinsbekræftelse?' });
  await expect(question).toBeVisible();
  await checkA11y(adminPage);
  await question.getByRole('button', { name: 'Nulstil', exact: true }).click();
  await expect(adminPage.getByText(`Totrinsbekræftelse er nulstillet for ${user.name}.`)).toBeVisible();
  await expect(adminPage.locator('[data-user-two-factor]')).toHaveText('Slået fra.');
  await adminContext.close();

  // The user's session ended: the next navigation asks to sign in, and the password is enough again.
  await page.getByRole('navigation', { name: 'Menu for kundeservice' }).getByRole('link', { name: 'Ordrer' }).click();
  await expect(page).toHaveURL(/\/support\/login\/\?redirectTo=%2Fsupport%2Forders%2F$/);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Adgangskode').fill(user.password);
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page).toHaveURL(/\/support\/orders\/$/);
});

test('moving two-step sign-in to a new app takes a current code, keeps the form on a refusal and signs the other sessions out', async ({ page, baseURL, checkA11y }) => {
  test.setTimeout(150_000);
  const user = await createSupportUser(baseURL!, { permissions: ['Support'], twoFactor: true });
  const elsewhere = await playwrightRequest.newContext({ baseURL });
  expect((await signInSupport(elsewhere, user)).status()).toBe(200);
  expect((await signInSupport(page.request, user)).status()).toBe(200);

  await page.goto('/support/two-factor/');
  await expect(page.locator('[data-two-factor-status]')).toHaveText('Totrinsbekræftelse er slået til.');
  const current = page.getByLabel('Kode fra din nuværende godkendelsesapp');
  const wrong = wrongCode(user.totpSecret!);
  await current.fill(wrong);
  await page.getByRole('button', { name: 'Opsæt en ny app' }).click();
  await expect(page.locator('#two-factor-move-code-error')).toHaveText('Koden er forkert eller allerede brugt. Vent på en ny kode i appen, og prøv igen.');
  await expect(current).toHaveValue(wrong);
  await checkA11y(page);
  await current.fill(await nextTotpCode(user));
  await page.getByRole('button', { name: 'Opsæt en ny app' }).click();

  const shown = (await page.locator('[data-two-factor-secret]').textContent()) ?? '';
  const secret = shown.replace(/\s/g, '');
  expect(secret).not.toBe(user.totpSecret);
  expect((await elsewhere.get('/api/support/supportprofile')).status()).toBe(200);
  await page.getByLabel('Kode fra din godkendelsesapp').fill(codeAt(secret, currentStep()));
  await page.getByRole('button', { name: 'Bekræft og slå til' }).click();
  await expect(page.locator('[data-two-factor-status]')).toHaveText('Totrinsbekræftelse er slået til.');
  await expect(page.getByLabel('Kode fra din nuværende godkendelsesapp')).toBeVisible();
  // The other session is signed out; this one goes on.
  expect((await elsewhere.get('/api/support/supportprofile')).status()).toBe(401);
  expect((await page.request.get('/api/support/supportprofile')).status()).toBe(200);
  await elsewhere.dispose();
});

test('a forgotten password, in English: the link from the email, a new password, then sign in', async ({ page, baseURL, checkA11y }) => {
  const user = await createSupportUser(baseURL!, { permissions: ['SEO'] });
  await page.goto('/support/login/');
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Log in to customer service' })).toBeVisible();
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/support\/login\/forgot\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reset password' })).toBeVisible();
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText('Required.')).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('status')).toContainText(`If a support user has the address ${user.email}, a link is on its way.`);
  await checkA11y(page);

  // The link, as the email carries it (read from the outbox).
  const admin = await supportAdminRequest(baseURL!);
  let link: string | undefined;
  await expect
    .poll(async () => {
      const answer = await admin.get('/api/support/outbox', { params: { To: user.email, Take: 20 } });
      const { items } = (await answer.json()) as { items: { body: string }[] };
      link = items.map((item) => /\/support\/login\/change\/\?[^\s"'<>]+/.exec(item.body)?.[0]).find((found) => found !== undefined);
      return link !== undefined;
    })
    .toBe(true);
  await admin.dispose();
  const changeLink = link!.replace(/&amp;/g, '&');

  await page.goto(changeLink);
  await expect(page.getByRole('heading', { level: 1, name: 'Change password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('too-short');
  await page.getByLabel('Repeat the new password').fill('too-short');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.locator('#support-change-password-error')).toHaveText('The password must be at least 12 characters long.');
  await checkA11y(page);
  const newPassword = `New-support-${unique('pw')}`;
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill(`${newPassword}-typo`);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.locator('#support-change-repeat-error')).toHaveText('The two passwords are not the same.');
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill(newPassword);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/support\/login\/\?changed=1$/);
  await expect(page.getByRole('status')).toHaveText('Your password has been changed. Log in with the new password.');
  await checkA11y(page);

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/support\/landing-pages\/$/);

  // The link works once.
  await page.goto(changeLink);
  await page.getByLabel('New password', { exact: true }).fill(`${newPassword}-2`);
  await page.getByLabel('Repeat the new password').fill(`${newPassword}-2`);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert')).toContainText('The link is invalid or has expired. Ask for a new one.');
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(/\/support\/login\/forgot\/$/);
});

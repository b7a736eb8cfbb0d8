/**
 * /support/risk-words/ (issue 6, risk signals): support keeps the list of words that suggest a minor. A
 * word added there refuses an advertiser's text at its field (what was typed stays); a word already on the
 * list is refused at the form; removing one asks first, and then the same text saves.
 */
import { test, expect, passAgeGate, createSupportUser, signInSupport, unique } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';

test('support adds a risk word that then refuses an advertiser’s text, and removes it after a confirmation', async ({ browser, baseURL, checkA11y }) => {
  const word = `zqv${unique('').slice(-6)}`;
  const user = await createSupportUser(baseURL!, { permissions: ['Support'] });
  const supportContext = await browser.newContext({ baseURL, locale: 'da-DK' });
  expect((await signInSupport(supportContext.request, user)).status()).toBe(200);
  const support = await supportContext.newPage();

  await support.goto('/support/risk-words/');
  await expect(support.getByRole('heading', { level: 1, name: 'Risikoord' })).toBeVisible();
  await expect(support.getByRole('navigation').getByRole('link', { name: 'Risikoord' })).toBeVisible();
  await checkA11y(support);
  await support.getByRole('textbox', { name: 'Ord' }).fill(`  ${word.toUpperCase()} `);
  await support.getByRole('button', { name: 'Tilføj ord' }).click();
  const row = support.locator(`tr[data-risk-word="${word}"]`);
  await expect(row).toContainText(user.name);
  await expect(row).toContainText(/\d{2}-\d{2}-\d{4}/);
  await expect(support.getByRole('textbox', { name: 'Ord' })).toHaveValue('');

  // The same word again is refused at the field, and what was typed stays.
  await support.getByRole('textbox', { name: 'Ord' }).fill(word);
  await support.getByRole('button', { name: 'Tilføj ord' }).click();
  await expect(support.locator('#risk-word-error')).toHaveText('Er allerede i brug.');
  await expect(support.getByRole('textbox', { name: 'Ord' })).toHaveValue(word);
  await checkA11y(support);

  // The advertiser's text with the word is refused at its field.
  const advertiserContext = await browser.newContext({ baseURL, locale: 'da-DK' });
  await passAgeGate(advertiserContext, baseURL);
  const page = await advertiserContext.newPage();
  await createAdvertiser(page, { name: 'Signe' });
  await page.goto('/backend/basic/');
  const text = `Rolig og venlig, ${word} og glad.`;
  await page.getByLabel('Introduktion').fill(text);
  await page.getByRole('button', { name: 'Gem' }).click();
  await expect(page.getByText('Teksten indeholder ord, der ikke er tilladt her, fordi de kan pege på en mindreårig.')).toBeVisible();
  await expect(page.getByLabel('Introduktion')).toHaveValue(text);

  // Removed after a confirmation (cancel first keeps it), the same text saves.
  await row.getByRole('button', { name: `Fjern ${word}` }).click();
  await support.getByRole('dialog').getByRole('button', { name: 'Annuller' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Fjern ${word}` }).click();
  await expect(support.getByRole('dialog')).toContainText(`Fjern »${word}« fra listen?`);
  await support.getByRole('dialog').getByRole('button', { name: 'Fjern ord' }).click();
  await expect(row).toHaveCount(0);
  await expect(support.getByText(`${word} er fjernet fra listen.`)).toBeVisible();

  await page.getByRole('button', { name: 'Gem' }).click();
  await expect(page.getByText('Dine ændringer er gemt.')).toBeVisible();
  await advertiserContext.close();
  await supportContext.close();
});

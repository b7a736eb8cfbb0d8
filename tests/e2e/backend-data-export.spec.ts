/**
 * The advertiser downloads their data from the backend (issue 15 item 7; GDPR art. 15 and 20;
 * docs/decisions/023-erasure-and-data-export.md): a button on /backend/close-advert/ saves one JSON file
 * with their account and advert. A fresh advertiser, signed in by createprofile.
 */
import { readFile } from 'node:fs/promises';
import { test, expect, passAgeGate } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';

test('an advertiser downloads their data as a JSON file that holds their email and advert', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  const advertiser = await createAdvertiser(page, { name: 'Dorthe Data' });
  await page.goto('/backend/close-advert/');
  await expect(page.getByRole('heading', { level: 2, name: 'Dine data' })).toBeVisible();
  await checkA11y(page);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Hent mine data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^annonce-data-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  const data = JSON.parse(await readFile(file, 'utf8')) as { account: { email: string }; adverts: { name: string }[] };
  expect(data.account.email).toBe(advertiser.email);
  expect(data.adverts[0]!.name).toBe('Dorthe Data');
  await expect(page.getByText('Dine data er hentet.')).toBeVisible();
});

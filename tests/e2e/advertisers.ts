/**
 * A fresh advertiser for a browser test: the account and its advert draft (status New, not public) made
 * through the real `createprofile` call with the page's own request context, so the browser is signed in
 * as that advertiser afterwards. Tests that change an advert use one of these (or a demo advert reserved
 * for them), never an advert another test looks at.
 */
import type { Page } from '@playwright/test';
import { expect, unique } from './fixtures.ts';

export type NewAdvertiser = { email: string; password: string; name: string; phone: string; regionId: number; cityId: number };

type City = { id: number; regionId: number };

export async function createAdvertiser(page: Page, overrides: Partial<{ name: string; kind: 0 | 1; gender: 1 | 5 }> = {}): Promise<NewAdvertiser> {
  const cities = (await (await page.request.get('/api/frontend/searchpagecities')).json()) as City[];
  const city = cities[0]!;
  const advertiser: NewAdvertiser = {
    email: `${unique('advertiser')}@example.invalid`,
    password: `Lang-og-sjælden-${Math.random().toString(36).slice(2, 10)}`,
    name: overrides.name ?? 'Testannonce',
    phone: `2${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    regionId: city.regionId,
    cityId: city.id,
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
    },
  });
  if (!response.ok()) throw new Error(`createprofile answered ${response.status()}: ${await response.text()}`);
  return advertiser;
}

/** A Danish mobile number nobody else in the run has (8 digits). */
export const newPhone = () => `2${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

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

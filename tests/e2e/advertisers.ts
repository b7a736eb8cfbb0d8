/**
 * A fresh advertiser for a browser test: the account and its advert draft (status New, not public) made
 * through the real `createprofile` call with the page's own request context, so the browser is signed in
 * as that advertiser afterwards. Tests that change an advert use one of these (or a demo advert reserved
 * for them), never an advert another test looks at.
 */
import type { Page } from '@playwright/test';
import { unique } from './fixtures.ts';

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

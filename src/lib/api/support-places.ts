/** Calls of support's regions-and-cities screen (/api/support/regions …, SEO) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { AddCityInput, RenameCityInput, RenamedCity, SupportCity, SupportRegion } from '../schemas/places.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export function createSupportPlacesApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    /** regions: every region with its cities, public advert counts and index pages. */
    regions: (signal?: AbortSignal) => client.get<SupportRegion[]>('regions', withSignal(signal)),
    /** cities: the cities of one region. */
    cities: (regionId: number, signal?: AbortSignal) => client.get<SupportCity[]>('cities', { searchParams: { RegionId: regionId }, ...withSignal(signal) }),
    /** cities (POST): adds a city to a region. */
    addCity: (body: AddCityInput) => client.post<SupportCity>('cities', { json: body }),
    /** renamecity: the city's new name and address; the old addresses answer 301 to the new. */
    renameCity: (body: RenameCityInput) => client.post<RenamedCity>('renamecity', { json: body }),
  };
}

export const supportPlacesApi = createSupportPlacesApi();

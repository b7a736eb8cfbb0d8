/** The basic/ screen's calls: basicinformation, the location lists, email and phone confirmation. */
import { backendApi } from '#lib/api/backend.ts';
import { frontendApi } from '#lib/api/frontend.ts';

import type { BasicInformation, BasicInformationAnswer } from '#lib/schemas/backend-answers.ts';

export type { BasicInformation, BasicInformationAnswer };

export type BasicInformationBody = {
  Name: string;
  Title: string;
  Introduction: string;
  Description: string;
  Phone: string;
  HasWhatsapp: boolean;
  Website: string | null;
  RegionId: number;
  CityId: number;
};

export type RegionOption = { id: number; name: string; nameEn: string; slug: string };
export type CityOption = { id: number; city: string; slug: string; regionId: number; regionSlug: string };
export type SentCode = { id: number; expiresAt: string; phone: string };

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export const basicApi = {
  get: (signal?: AbortSignal) => backendApi.client.get<BasicInformationAnswer>('basicinformation', withSignal(signal)),
  save: (body: BasicInformationBody) => backendApi.client.post<BasicInformationAnswer>('basicinformation', { json: body }),
  regions: (signal?: AbortSignal) => frontendApi.client.get<RegionOption[]>('searchpageregions', withSignal(signal)),
  cities: (signal?: AbortSignal) => frontendApi.client.get<CityOption[]>('searchpagecities', withSignal(signal)),
  /** emailverification: the token of the emailed link (the page's `url` query). */
  verifyEmail: (url: string) => backendApi.client.get<{ email: string; emailVerified: true }>('emailverification', { searchParams: { Url: url } }),
  /** sendemail: a new verification link to the account's email. */
  sendEmail: () => backendApi.client.post<undefined>('sendemail', { json: {} }),
  /** sendsms: a new code to the account's phone. */
  sendSms: () => frontendApi.client.post<SentCode>('sendsms', { json: {} }),
  /** codeverification: the 6-digit code with the id sendsms answered. */
  verifyCode: (id: number, code: string) => frontendApi.client.get<undefined>('codeverification', { searchParams: { Id: id, Code: code } }),
};

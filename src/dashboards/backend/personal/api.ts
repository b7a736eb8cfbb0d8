/** The personal/ screen's calls: personaldetails (GET answers the choices for nationality and languages too). */
import { backendApi } from '#lib/api/backend.ts';

export type PersonalDetails = {
  age: number | null;
  height: number | null;
  weight: number | null;
  /** 1 Natural, 2 Silicone. */
  breastType: number | null;
  nationalityId: number | null;
  languageIds: number[];
};

export type ReferenceOption = { id: number; code: string; nameDa: string; nameEn: string };

export type PersonalDetailsAnswer = {
  approved: boolean;
  current: PersonalDetails;
  pending: Partial<PersonalDetails>;
  pendingFields: string[];
  options: { nationalities: ReferenceOption[]; languages: ReferenceOption[] };
};

export type PersonalDetailsBody = {
  Age: number;
  Height: number | null;
  Weight: number | null;
  BreastType: number | null;
  NationalityId: number | null;
  Languages: number[];
};

export const personalApi = {
  get: (signal?: AbortSignal) => backendApi.client.get<PersonalDetailsAnswer>('personaldetails', signal ? { signal } : {}),
  save: (body: PersonalDetailsBody) => backendApi.client.post<PersonalDetailsAnswer>('personaldetails', { json: body }),
};

/** The personal/ screen's calls: personaldetails (GET answers the choices for nationality and languages too). */
import { backendApi } from '#lib/api/backend.ts';

import type { PersonalDetails, PersonalDetailsAnswer, ReferenceOption } from '#lib/schemas/backend-answers.ts';

export type { PersonalDetails, PersonalDetailsAnswer, ReferenceOption };

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

/** Calls to /api/backend/ (the advertiser's session) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { UserProfile } from './types.ts';
import type { AppealStatementInput, StatementOfReasons } from '../schemas/moderation.ts';

export function createBackendApi(options: ClientOptions = {}) {
  const client = createApiClient('backend', options);
  return {
    client,
    userProfile: (signal?: AbortSignal) => client.get<UserProfile>('userprofile', signal ? { signal } : {}),
    logout: () => client.post<undefined>('logout'),
    /** The advertiser's statements of reasons with their appeals, newest first. */
    statementsOfReasons: (signal?: AbortSignal) => client.get<StatementOfReasons[]>('statementsofreasons', signal ? { signal } : {}),
    /** 204; 409 with field Id `alreadyAppealed` the second time. */
    appealStatement: (body: AppealStatementInput) => client.post<undefined>('appealstatement', { json: body }),
  };
}

export const backendApi = createBackendApi();

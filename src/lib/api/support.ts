/** Calls to /api/support/ (support staff's session) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { Credentials, SupportProfile } from './types.ts';

export function createSupportApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    client,
    supportProfile: (signal?: AbortSignal) =>
      client.get<SupportProfile>('supportprofile', signal ? { signal } : {}),
    login: (credentials: Credentials) => client.post<SupportProfile>('login', { json: credentials }),
    logout: () => client.post<undefined>('logout'),
  };
}

export const supportApi = createSupportApi();

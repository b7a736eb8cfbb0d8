/** Calls to /api/backend/ (the advertiser's session) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { UserProfile } from './types.ts';

export function createBackendApi(options: ClientOptions = {}) {
  const client = createApiClient('backend', options);
  return {
    client,
    userProfile: (signal?: AbortSignal) => client.get<UserProfile>('userprofile', signal ? { signal } : {}),
    logout: () => client.post<undefined>('logout'),
  };
}

export const backendApi = createBackendApi();

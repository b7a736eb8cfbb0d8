/** Calls to /api/frontend/ made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { Credentials, UserProfile } from './types.ts';

export function createFrontendApi(options: ClientOptions = {}) {
  const client = createApiClient('frontend', options);
  return {
    client,
    login: (credentials: Credentials, signal?: AbortSignal) =>
      client.post<UserProfile>('login', { json: credentials, ...(signal ? { signal } : {}) }),
    impersonate: (url: string) => client.post<unknown>('impersonate', { searchParams: { url } }),
  };
}

export const frontendApi = createFrontendApi();

/** Calls to /api/support/ (support staff's session) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type {
  PendingCounts,
  SaveSupportUserBody,
  SupportCredentials,
  SupportProfile,
  SupportUserList,
  SupportUserRow,
  TwoFactorSetup,
} from './types.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export function createSupportApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    client,
    supportProfile: (signal?: AbortSignal) => client.get<SupportProfile>('supportprofile', withSignal(signal)),
    /** 401 with field `code` (codeRequired, codeWrong) when two-step sign-in is on. */
    login: (credentials: SupportCredentials) => client.post<SupportProfile>('login', { json: credentials }),
    logout: () => client.post<undefined>('logout'),
    /** 204 whether or not a support user has this email. */
    resetPassword: (email: string) => client.post<undefined>('resetpassword', { json: { Email: email } }),
    changePassword: (input: { Token: string; Id: string | number; Password: string }) =>
      client.post<undefined>('changepassword', { json: input }),

    twoFactorSetup: () => client.post<TwoFactorSetup>('twofactorsetup', { json: {} }),
    twoFactorConfirm: (code: string) => client.post<undefined>('twofactorconfirm', { json: { Code: code } }),
    twoFactorDisable: (code: string) => client.post<undefined>('twofactordisable', { json: { Code: code } }),

    users: (query: { Skip?: number; Take?: number; Text?: string }, signal?: AbortSignal) =>
      client.get<SupportUserList>('users', { searchParams: query, ...withSignal(signal) }),
    user: (id: number, signal?: AbortSignal) => client.get<SupportUserRow>('user', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** Creates (201) or updates (200) a support user. */
    saveUser: (body: SaveSupportUserBody) => client.post<SupportUserRow>('users', { json: body }),
    removeUser: (id: number) => client.post<undefined>('removeuser', { json: { Id: id } }),

    pendingCounts: (signal?: AbortSignal) => client.get<PendingCounts>('pendingcounts', withSignal(signal)),
  };
}

export const supportApi = createSupportApi();

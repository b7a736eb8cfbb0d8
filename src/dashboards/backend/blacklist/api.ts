/** The blacklist screen's calls (spec §7: profileblacklist, addtoblacklist; removefromblacklist). */
import { backendApi } from '#lib/api/backend.ts';

/** A blacklisted client phone number (8 digits) with the advertiser's private note. */
export type BlacklistEntry = { id: number; phone: string; note: string | null; createdAt: string };

const client = backendApi.client;

export const blacklistApi = {
  list: (signal?: AbortSignal) => client.get<BlacklistEntry[]>('profileblacklist', signal ? { signal } : {}),
  /** addtoblacklist: answers the new entry (201); a number already listed is refused (409 `duplicate` at Phone). */
  add: (phone: string, note: string) => client.post<BlacklistEntry>('addtoblacklist', { json: { Phone: phone, Note: note } }),
  /** removefromblacklist: answers 204. */
  remove: (id: number) => client.post<undefined>('removefromblacklist', { json: { Id: id } }),
};

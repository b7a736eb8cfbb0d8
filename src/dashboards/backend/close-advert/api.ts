/** The close-advert screen's calls: holiday, close/reactivate, password change, data download, account deletion. */
import { isoDayOf } from '#lib/format.ts';
import { backendApi } from '#lib/api/backend.ts';

export type HolidayAnswer = { onHoliday: boolean; holidayUntil: string | null; expirationDate: string | null };

/** Profile statuses the advertiser may ask for: 1 Active (reactivate), 5 Deactivated (close). */
export const ACTIVE = 1;
export const DEACTIVATED = 5;

export const closeAdvertApi = {
  /** setprofileholiday: back on `until` (yyyy-MM-dd, Copenhagen). */
  setHoliday: (until: string) => backendApi.client.post<HolidayAnswer>('setprofileholiday', { json: { Until: until } }),
  resetHoliday: () => backendApi.client.post<HolidayAnswer>('resetprofileholidation'),
  changeStatus: (status: typeof ACTIVE | typeof DEACTIVATED) =>
    backendApi.client.post<{ profileStatus: number; expirationDate: string | null }>('changeprofilestatus', { json: { Status: status } }),
  /** updatepassword: other sessions end; this browser gets a new session cookie and stays signed in. */
  updatePassword: (password: string, newPassword: string) =>
    backendApi.client.post<undefined>('updatepassword', { json: { Password: password, NewPassword: newPassword } }),
  /** dataexport: the account's data (GDPR art. 15 and 20), as the JSON file the browser saves. */
  downloadData: async (): Promise<{ blob: Blob; fileName: string }> => {
    const data = await backendApi.client.get<unknown>('dataexport');
    const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
    return { blob, fileName: `annonce-data-${isoDayOf(new Date())}.json` };
  },
  /** deleteuser: soft-deletes account and advert (restorable for 30 days) and signs out everywhere. */
  deleteUser: (password: string) => backendApi.client.post<undefined>('deleteuser', { json: { Password: password } }),
};

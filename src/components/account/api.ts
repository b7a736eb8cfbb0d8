/** The backend account call the /create flow makes (the frontend ones are in #lib/api/frontend.ts). */
import { backendApi } from '#lib/api/backend.ts';

/** sendemail: a new email verification link to the signed-in advertiser's address. */
export const sendVerificationEmail = () => backendApi.client.post<undefined>('sendemail', { json: {} });

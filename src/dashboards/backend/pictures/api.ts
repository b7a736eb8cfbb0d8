/** The pictures screen's calls (spec §7 media, docs/decisions/013) and their answers. */
import { backendApi } from '#lib/api/backend.ts';
import { uploadPicture, type PictureOutcome, type UploadOptions } from '#lib/api/upload.ts';
import type { BackendPicture } from '#lib/schemas/media.ts';

const client = backendApi.client;

const load = (signal?: AbortSignal) => client.get<BackendPicture[]>('profilepictures', signal ? { signal } : {});

/** A change answers the list; an answer without one (e.g. 204) is followed by loading it. */
async function listAfter(call: Promise<unknown>): Promise<BackendPicture[]> {
  const answer = await call;
  if (Array.isArray(answer)) return answer as BackendPicture[];
  if (answer && typeof answer === 'object' && Array.isArray((answer as { pictures?: unknown }).pictures)) {
    return (answer as { pictures: BackendPicture[] }).pictures;
  }
  return load();
}

export const picturesApi = {
  load,
  upload: (file: File, options: UploadOptions): Promise<PictureOutcome> => uploadPicture('backend', 'profilepictureuploader', file, options),
  setOnline: (id: number, online: boolean) => listAfter(client.post('updateimagestatus', { json: { PictureId: id, Online: online } })),
  setPrimary: (id: number) => listAfter(client.post('setprimarypicture', { json: { PictureId: id } })),
  reorder: (ids: number[]) => listAfter(client.post('reorderimages', { json: { Ids: ids } })),
  remove: (id: number) => listAfter(client.post('deleteprofilepicture', { json: { PictureId: id } })),
};

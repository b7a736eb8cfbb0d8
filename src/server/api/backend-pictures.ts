import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PictureIdSchema, ReorderImagesSchema, UpdateImageStatusSchema } from '#lib/schemas/media-calls.ts';
import {
  deleteOwnPicture,
  listOwnPictures,
  reorderPictures,
  setPictureOnline,
  setPrimaryPicture,
  uploadOwnPictures,
} from '../domain/media/pictures.ts';
import { advertiserOf } from './backend.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';
import { pictureMediaOf, registerPictureMultipart, sendUploadAnswer, withPictureFiles } from './picture-upload.ts';

/** /api/backend/...: the advertiser's picture calls (spec §7 media): profilepictures, profilepictureuploader, updateimagestatus, setprimarypicture, reorderimages, deleteprofilepicture (docs/decisions/013). */
export function backendPictureRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    await registerPictureMultipart(app);
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, advertiserOf(request));
    const media = pictureMediaOf(deps);

    app.get('/profilepictures', async (request) => listOwnPictures(ctxOf(request)));

    app.post('/profilepictureuploader', async (request, reply) => {
      const ctx = ctxOf(request);
      const answer = await withPictureFiles(request, (files) => uploadOwnPictures(ctx, media, files));
      return sendUploadAnswer(request, reply, answer);
    });

    app.post('/updateimagestatus', async (request) => {
      const input = readInput(request, UpdateImageStatusSchema);
      return setPictureOnline(ctxOf(request), input.PictureId, input.Online);
    });
    app.post('/setprimarypicture', async (request) => setPrimaryPicture(ctxOf(request), readInput(request, PictureIdSchema).PictureId));
    app.post('/reorderimages', async (request) => reorderPictures(ctxOf(request), readInput(request, ReorderImagesSchema).Ids));
    app.post('/deleteprofilepicture', async (request) =>
      deleteOwnPicture(ctxOf(request), deps.storage, readInput(request, PictureIdSchema).PictureId),
    );
  };
}

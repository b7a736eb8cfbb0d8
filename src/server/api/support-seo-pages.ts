import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import {
  DeleteLandingPageImageSchema,
  LandingPageChangeSchema,
  LandingPageIdSchema,
  LandingPageImageFieldsSchema,
  LandingPageSchema,
  LandingPagesQuerySchema,
  PublishLandingPageSchema,
} from '#lib/schemas/landing-page.ts';
import { createLandingPage, saveLandingPage } from '../domain/seo/create-landing-page.ts';
import { getSupportLandingPage, listLandingPages } from '../domain/seo/list-landing-pages.ts';
import { deleteLandingPage, publishLandingPage } from '../domain/seo/landing-page-status.ts';
import { deleteLandingPageImage, uploadLandingPageImage } from '../domain/seo/landing-page-images.ts';
import type { UploadedPictureFile } from '../domain/media/picture-processing.ts';
import type { Actor } from '../domain/context.ts';
import { AppError } from '../domain/errors.ts';
import { requirePermission } from '../domain/permissions.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';
import { pictureMediaOf, registerPictureMultipart } from './picture-upload.ts';

/**
 * /api/support/...: SEO pages (spec §7 support "SEO pages": list with Skip, Take, Id, Title, Url,
 * TypeValue; add, delete, image delete; issue 17). SEO staff (`seo:pages:any`, checked in the domain).
 * Registered by support.ts, whose hook has put the signed-in support user on the request.
 *   GET  landingpages              the list (services, articles, free pages, index pages of every place)
 *   POST landingpages              adds one language of a page (the first call of this area)
 *   GET  landingpage               a page with both twins (Id of either)
 *   POST landingpage               adds or changes a page with both twins (the editor)
 *   POST publishlandingpage        one language published or unpublished
 *   POST deletelandingpage         one language deleted
 *   POST landingpageimage          multipart: Id and Alt, then the file
 *   POST deletelandingpageimage    the spec's image delete (Id, Key)
 */
export function supportSeoPageRoutes(deps: ApiDeps, supportOf: (request: FastifyRequest) => Actor) {
  return async (app: FastifyInstance): Promise<void> => {
    await registerPictureMultipart(app);
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, supportOf(request));
    const media = pictureMediaOf(deps);

    app.get('/landingpages', async (request) => listLandingPages(ctxOf(request), readInput(request, LandingPagesQuerySchema)));

    app.post('/landingpages', async (request, reply) => {
      const created = await createLandingPage(ctxOf(request), readInput(request, LandingPageSchema));
      return reply.code(201).send(created);
    });

    app.get('/landingpage', async (request) => getSupportLandingPage(ctxOf(request), readInput(request, LandingPageIdSchema).Id));

    app.post('/landingpage', async (request) => saveLandingPage(ctxOf(request), readInput(request, LandingPageChangeSchema)));

    app.post('/publishlandingpage', async (request) => {
      const input = readInput(request, PublishLandingPageSchema);
      return publishLandingPage(ctxOf(request), input.Id, input.Published);
    });

    app.post('/deletelandingpage', async (request, reply) => {
      await deleteLandingPage(ctxOf(request), readInput(request, LandingPageIdSchema).Id);
      return reply.code(204).send();
    });

    app.post('/deletelandingpageimage', async (request) => {
      const input = readInput(request, DeleteLandingPageImageSchema);
      return deleteLandingPageImage(ctxOf(request), deps.storage, input.Id, input.Key);
    });

    /** Multipart: the fields Id and Alt, then one file (streamed to a temporary file, never whole in memory). */
    app.post('/landingpageimage', async (request) => {
      const ctx = ctxOf(request);
      // Refused before the upload is read: a user without the permission sends no file to disk.
      requirePermission(ctx.actor, 'seo:pages:any');
      if (!request.isMultipart()) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'file', message: 'required' }]);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'landing-image-'));
      try {
        const fields: Record<string, string> = {};
        let file: UploadedPictureFile | null = null;
        let parts = 0;
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            parts += 1;
            const filePath = path.join(dir, `${parts}.upload`);
            await pipeline(part.file, createWriteStream(filePath));
            if (file) continue;
            file = { path: filePath, fileName: part.filename, mimetype: part.mimetype, truncated: part.file.truncated };
          } else {
            fields[part.fieldname.toLowerCase()] = String(part.value);
          }
        }
        const parsed = v.safeParse(LandingPageImageFieldsSchema, { Id: fields['id'], Alt: fields['alt'] ?? '' });
        if (!parsed.success) {
          throw new AppError(
            'INVALID',
            'Some required fields are missed',
            parsed.issues.map((issue) => ({ field: issue.path?.map((p) => String(p.key)).join('.') ?? '', message: issue.message })),
          );
        }
        if (!file) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'file', message: 'required' }]);
        const outcome = await uploadLandingPageImage(ctx, media, parsed.output.Id, parsed.output.Alt, file);
        if (!outcome.ok) throw new AppError('INVALID', 'The file was refused', [{ field: 'file', message: outcome.reason }]);
        return outcome.page;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  };
}

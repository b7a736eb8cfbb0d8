import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import * as v from 'valibot';
import {
  MIGRATION_LIMITS,
  MigratedAdvertIdSchema,
  MigratedAdvertsQuerySchema,
  MergeMigratedAdvertSchema,
  MigrationImportIdSchema,
  RefuseMigratedAdvertSchema,
} from '#lib/schemas/migration.ts';
import { inviteMigratedAdvert, mergeMigratedAdvert } from '../domain/migration/claim.ts';
import type { Actor } from '../domain/context.ts';
import { AppError } from '../domain/errors.ts';
import { requirePermission } from '../domain/permissions.ts';
import { MIGRATION_PERMISSION, getMigrationImport, listMigrationImports, startMigrationImport, type UploadedArchive } from '../domain/migration/start-import.ts';
import { getMigratedAdvert, listMigratedAdverts, openMigratedPicture, refuseMigratedAdvert } from '../domain/migration/migrated-adverts.ts';
import { enqueueMigrationImport } from '../jobs/migration-import-job.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';

/**
 * /api/support/...: adverts brought over from the old site (issue 18; spec §7 support "migration
 * adverts"; docs/migration-format.md). Support (`migration:manage:any`, checked in the domain).
 * Registered by support.ts, whose hook has put the signed-in support user on the request.
 *   GET  migrationimports                 the latest imports, newest first (without their refused lines)
 *   POST migrationimport                  multipart: the export archive (field `file`); 201 a new import, 200 the same file's earlier one
 *   GET  migrationimport?Id=              an import's progress and refused lines
 *   GET  migrationadverts                 the imported adverts: Skip, Take, OldId, Name, Email, Phone, State, ImportId
 *   GET  migrationadvert?Id=              one imported advert: data, pictures, possible duplicates
 *   POST refusemigrationadvert            Id, Reason
 *   POST invitemigrationadvert            Id: the claim link by email to its owner, a notice by SMS
 *   POST mergemigrationadvert             Id, AdvertId: the import is that existing advert
 *   GET  migrationpicture/{id}/{index}/{width}.{format}   an imported picture's private file
 */

const PictureParamsSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number)),
  index: v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number)),
  file: v.pipe(v.string(), v.maxLength(40)),
});

const noFile = () => new AppError('INVALID', 'Some required fields are missed', [{ field: 'File', message: 'required' }]);

export function supportMigrationRoutes(deps: ApiDeps, supportOf: (request: FastifyRequest) => Actor) {
  return async (app: FastifyInstance): Promise<void> => {
    // One archive per call, streamed to disk (never whole in memory); a larger one is cut off and refused.
    await app.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: MIGRATION_LIMITS.archiveBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
    });
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, supportOf(request));

    app.post('/migrationimport', async (request, reply) => {
      const ctx = ctxOf(request);
      // Refused before the upload is read: a user without the permission sends nothing to disk.
      requirePermission(ctx.actor, MIGRATION_PERMISSION);
      if (!request.isMultipart()) throw noFile();
      const dir = await mkdtemp(path.join(os.tmpdir(), 'migration-upload-'));
      try {
        let file: UploadedArchive | null = null;
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          if (file) {
            part.file.resume();
            continue;
          }
          const filePath = path.join(dir, 'archive.zip');
          const hash = createHash('sha256');
          let bytes = 0;
          const hashing = new Transform({
            transform(chunk: Buffer, _encoding, done) {
              bytes += chunk.length;
              hash.update(chunk);
              done(null, chunk);
            },
          });
          await pipeline(part.file, hashing, createWriteStream(filePath));
          file = { path: filePath, fileName: part.filename || 'export.zip', bytes, sha256: hash.digest('hex'), truncated: part.file.truncated };
        }
        if (!file) throw noFile();
        const started = await startMigrationImport(ctx, { storage: deps.storage, queueImport: (id) => enqueueMigrationImport(deps.db, id) }, file);
        request.server.migrationWorker.poke();
        return reply.code(started.created ? 201 : 200).send(started.import);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    app.get('/migrationimport', async (request) => getMigrationImport(ctxOf(request), readInput(request, MigrationImportIdSchema).Id));
    app.get('/migrationimports', async (request) => listMigrationImports(ctxOf(request)));

    app.get('/migrationadverts', async (request) => listMigratedAdverts(ctxOf(request), readInput(request, MigratedAdvertsQuerySchema)));

    app.get('/migrationadvert', async (request) => getMigratedAdvert(ctxOf(request), readInput(request, MigratedAdvertIdSchema).Id));

    app.post('/refusemigrationadvert', async (request) => refuseMigratedAdvert(ctxOf(request), readInput(request, RefuseMigratedAdvertSchema)));
    // The claim's support side (domain/migration/claim.ts): the invitation, whose link goes to its owner
    // only (never into this answer), and the merge into an existing advertiser's advert.
    app.post('/invitemigrationadvert', async (request) =>
      inviteMigratedAdvert(ctxOf(request), readInput(request, MigratedAdvertIdSchema).Id, { messaging: deps.messaging }),
    );
    app.post('/mergemigrationadvert', async (request) => mergeMigratedAdvert(ctxOf(request), readInput(request, MergeMigratedAdvertSchema)));

    /** Like the other private media (api/private-media.ts): authenticated, never kept by a shared cache. */
    app.get('/migrationpicture/:id/:index/:file', async (request, reply) => {
      const ctx = ctxOf(request);
      const params = v.safeParse(PictureParamsSchema, request.params);
      if (!params.success) {
        requirePermission(ctx.actor, MIGRATION_PERMISSION);
        throw new AppError('NOT_FOUND', 'File was not found');
      }
      const stored = await openMigratedPicture(ctx, deps.storage, params.output);
      return reply
        .header('Cache-Control', 'private, no-store')
        .header('Content-Type', stored.contentType)
        .header('Content-Length', stored.size)
        .send(stored.body);
    });
  };
}

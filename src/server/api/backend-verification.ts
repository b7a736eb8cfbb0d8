import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import * as v from 'valibot';
import {
  CheckSessionSchema,
  DeleteValidationPictureSchema,
  HandoffSchema,
  UpdateIdentificationSchema,
  UploadKindSchema,
  VERIFICATION_LIMITS,
  ValidationPictureQuerySchema,
  ValidationVideoQuerySchema,
} from '#lib/schemas/verification.ts';
import type { AgeProviderCallback, AgeVerificationProvider, StoredObject } from '../adapters/types.ts';
import { SYSTEM, VISITOR, type Actor } from '../domain/context.ts';
import { AppError, notFound, unauthenticated } from '../domain/errors.ts';
import type { UploadedPictureFile } from '../domain/media/picture-processing.ts';
import { checkAgeSession, recordAgeCheckResult, startAgeCheck, updateIdentification } from '../domain/verification/age-check.ts';
import { createHandoff, resolveHandoff } from '../domain/verification/handoff.ts';
import {
  deleteOwnVerificationFile,
  getOwnValidationPictures,
  getOwnValidationVideo,
  openOwnVerificationFile,
  uploadVerificationFile,
} from '../domain/verification/verification-uploads.ts';
import { advertiserOfRequest, contextFor, noStore, readInput, type ApiDeps } from './http.ts';
import { siteUrlForVisitor } from './own-address.ts';

/** The age-verification provider (AGE_PROVIDER), or null when none is configured (the online check is not offered). */
export type VerificationDeps = { ageProvider: AgeVerificationProvider | null };

/** The test provider's callback signature (its header and signing), for the tests that play the provider. */
export { AGE_PROVIDER_SIGNATURE_HEADER, signAgeProviderBody } from '../adapters/age-verification/test-age-provider.ts';

type AdvertiserActor = Extract<Actor, { type: 'advertiser' }>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The age provider's callback once its signature is verified (set by yoticallback's parser only). */
    ageProviderCallback?: AgeProviderCallback;
  }
}

/**
 * /api/backend/... verification calls (spec §7 Verification; issue 6). Registered beside `backendRoutes`
 * (not inside its session hook) because the upload, check and delete calls also take a QR hand-off token
 * (`Handoff`: in the query of a GET, in the JSON body or as a form field before the file of a POST) instead of the session cookie; every other call here needs the
 * session, and yoticallback needs the provider's signature instead.
 */
export function backendVerificationRoutes(deps: ApiDeps, verification: VerificationDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: VERIFICATION_LIMITS.videoBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
    });
    app.addHook('onRequest', async (_request, reply) => {
      noStore(reply);
    });
    const media = { storage: deps.storage, work: deps.mediaWork };
    // The age check's return and the QR hand-off come back to the address the advertiser used (in development: api/own-address.ts).
    const ageDepsFor = (request: FastifyRequest) => ({ provider: verification.ageProvider, siteUrl: siteUrlForVisitor(deps, request) });

    /** The signed-in advertiser, or null. */
    const sessionOf = async (request: FastifyRequest): Promise<AdvertiserActor | null> => {
      const actor = await advertiserOfRequest(deps, request);
      return actor.type === 'advertiser' ? actor : null;
    };
    /** Session-only calls. */
    const advertiserOf = async (request: FastifyRequest) => {
      const actor = await sessionOf(request);
      if (!actor) throw unauthenticated();
      return contextFor(deps, request, actor);
    };
    /** The upload, check and delete calls: the session, else a hand-off token (GET: query; POST: body). */
    const ownerOf = async (request: FastifyRequest, token?: string) => {
      const actor = (await sessionOf(request)) ?? (await handoffActor(request, token ?? readInput(request, HandoffSchema).Handoff));
      if (!actor) throw unauthenticated();
      return contextFor(deps, request, actor);
    };
    const handoffActor = async (request: FastifyRequest, token: string | undefined) =>
      token ? resolveHandoff(contextFor(deps, request, VISITOR), token) : null;

    app.post('/validationpictureuploader', async (request) => {
      if (!request.isMultipart()) throw new AppError('INVALID', 'Send one file (multipart/form-data)', [{ field: 'file', message: 'required' }]);
      let actor: AdvertiserActor | null = (await sessionOf(request)) ?? (await handoffActor(request, readInput(request, HandoffSchema).Handoff));
      const fields: Record<string, string> = {};
      const dir = await mkdtemp(path.join(os.tmpdir(), 'verification-upload-'));
      try {
        let file: UploadedPictureFile | null = null;
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            // Nothing is written to disk for someone we do not know: `Handoff` must come before the file.
            if (!actor || file) {
              part.file.resume();
              if (!actor) throw unauthenticated();
              continue;
            }
            const filePath = path.join(dir, 'upload');
            await pipeline(part.file, createWriteStream(filePath));
            file = { path: filePath, fileName: part.filename, mimetype: part.mimetype, truncated: part.file.truncated };
          } else {
            fields[part.fieldname] = String(part.value);
            if (!actor && part.fieldname.toLowerCase() === 'handoff') actor = await handoffActor(request, String(part.value));
          }
        }
        if (!actor) throw unauthenticated();
        const kind = parseFields(fields);
        if (!file) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'file', message: 'required' }]);
        return await uploadVerificationFile(contextFor(deps, request, actor), media, { kind, file });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    app.get('/validationpicture', async (request, reply) => {
      const ctx = await ownerOf(request);
      const input = readInput(request, ValidationPictureQuerySchema);
      if (input.File) {
        if (!input.Kind) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Kind', message: 'required' }]);
        return sendPrivateFile(reply, await openOwnVerificationFile(ctx, deps.storage, input.Kind));
      }
      return getOwnValidationPictures(ctx, { onlineCheck: verification.ageProvider !== null });
    });

    app.get('/validationvideo', async (request, reply) => {
      const ctx = await ownerOf(request);
      if (readInput(request, ValidationVideoQuerySchema).File) return sendPrivateFile(reply, await openOwnVerificationFile(ctx, deps.storage, 'video'));
      return getOwnValidationVideo(ctx);
    });

    app.post('/deletevalidationpicture', async (request, reply) => {
      const ctx = await ownerOf(request);
      await deleteOwnVerificationFile(ctx, deps.storage, readInput(request, DeleteValidationPictureSchema).Kind);
      return reply.code(204).send();
    });

    app.post('/deletevalidationvideo', async (request, reply) => {
      const ctx = await ownerOf(request);
      await deleteOwnVerificationFile(ctx, deps.storage, 'video');
      return reply.code(204).send();
    });

    app.post('/ageverificationbyqrcode', async (request) => createHandoff(await advertiserOf(request), siteUrlForVisitor(deps, request)));

    app.post('/ageestimation', async (request) => startAgeCheck(await advertiserOf(request), ageDepsFor(request)));

    app.get('/checksession', async (request) => {
      const ctx = await advertiserOf(request);
      return checkAgeSession(ctx, ageDepsFor(request), readInput(request, CheckSessionSchema).SessionId);
    });

    app.post('/updateidentification', async (request) => {
      const ctx = await advertiserOf(request);
      return updateIdentification(ctx, readInput(request, UpdateIdentificationSchema).ProfileId);
    });

    // The provider's server-to-server callback, authenticated by the provider's own signature (an HMAC
    // header for the test provider, Yoti's RSA signature in the body): its own JSON parser keeps the raw
    // bytes, and the provider adapter verifies them. Not a browser call: no session, no Origin.
    await app.register(async (callback) => {
      callback.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (request, body, done) => {
        const provider = verification.ageProvider;
        if (!provider) return done(notFound('Age provider'), undefined);
        const verified = provider.verifyCallback(body as Buffer, request.headers);
        if (!verified) return done(unauthenticated(), undefined);
        request.ageProviderCallback = verified;
        done(null, {});
      });
      // Authenticated by its signature, not by Origin (./cross-site.ts).
      callback.post('/yoticallback', { config: { signedCallback: true } }, async (request, reply) => {
        const provider = verification.ageProvider;
        if (!provider) throw notFound('Age provider');
        const verified = request.ageProviderCallback;
        if (!verified) throw unauthenticated();
        await recordAgeCheckResult(contextFor(deps, request, SYSTEM), provider, verified.sessionId, verified.result);
        // Yoti retries a notification until it is acknowledged with 200.
        return reply.code(200).send({ received: true });
      });
    });
  };
}

/** validationpictureuploader's `Kind`, named in a problem when missing or unknown. */
function parseFields(fields: Record<string, string>) {
  const lower = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key.toLowerCase(), value]));
  const result = v.safeParse(UploadKindSchema, { Kind: lower['kind'] });
  if (!result.success) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Kind', message: 'required' }]);
  return result.output.Kind;
}

/** A private file to the one person allowed to see it: never cached, shown inline, never sniffed. */
export function sendPrivateFile(reply: FastifyReply, file: StoredObject): FastifyReply {
  return reply
    .header('Content-Type', file.contentType)
    .header('Content-Length', file.size)
    .header('Cache-Control', 'no-store')
    .header('Content-Disposition', 'inline')
    .header('X-Content-Type-Options', 'nosniff')
    .send(file.body);
}

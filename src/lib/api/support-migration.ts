/**
 * Calls of support's screens for the adverts of the old site (issue 18; /api/support/migrationimport,
 * migrationadverts, migrationadvert, refusemigrationadvert, invitemigrationadvert, mergemigrationadvert)
 * made from the browser. The archive's upload is multipart with progress (./upload.ts); the rest are JSON.
 */
import { createApiClient, type ClientOptions } from './client.ts';
import { uploadFiles, type UploadOptions } from './upload.ts';
import type { Paged } from './support.ts';
import type { MigratedAdvertDetail, MigratedAdvertItem, MigratedAdvertState, MigrationImport } from '../schemas/migration.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** migrationadverts: every key given must match (old id exact, name and email contain, phone by its digits). */
export type MigratedAdvertsRequest = {
  Skip?: number;
  Take?: number;
  OldId?: string;
  Name?: string;
  Email?: string;
  Phone?: string;
  State?: MigratedAdvertState | '';
  ImportId?: string;
};

/** invitemigrationadvert's answer: the link went to the advert's email (never in this answer), a notice by SMS. */
export type MigrationInvitation = { state: 'invited'; invitedAt: string; claimExpiresAt: string };

/** mergemigrationadvert's answer. */
export type MigrationMerge = { state: 'duplicate'; advertId: number };

/** Why invitemigrationadvert refuses (409, field Id). */
export const INVITE_REFUSALS = ['noEmail', 'noPhone', 'emailHasAccount', 'notInvitable'] as const;

export function createSupportMigrationApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    /**
     * migrationimport (POST): uploads the export archive (multipart, field `file`); 201 a new import, 200
     * the same file's earlier one. A refused file is a 400 with the reason at `File` (notAnArchive,
     * noAdvertsFile, advertsFileTooLarge, archiveTooLarge).
     */
    upload: (file: File, upload: UploadOptions = {}) => uploadFiles<MigrationImport>('support', 'migrationimport', [file], upload),
    /** migrationimports: the latest imports, newest first (their refused lines are in migrationimport). */
    imports: (signal?: AbortSignal) => client.get<Omit<MigrationImport, 'lineErrors'>[]>('migrationimports', withSignal(signal)),
    /** migrationimport (GET): one import's progress and refused lines. */
    importProgress: (id: number, signal?: AbortSignal) => client.get<MigrationImport>('migrationimport', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** migrationadverts: a page of the imported adverts, newest first. */
    adverts: (query: MigratedAdvertsRequest, signal?: AbortSignal) =>
      client.get<Paged<MigratedAdvertItem>>('migrationadverts', { searchParams: query, ...withSignal(signal) }),
    /** migrationadvert: one imported advert with its data, pictures (authenticated URLs) and possible duplicates. */
    advert: (id: number, signal?: AbortSignal) => client.get<MigratedAdvertDetail>('migrationadvert', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** refusemigrationadvert: the advert will not be brought over (its old address answers Gone); 409 alreadyDecided. */
    refuse: (body: { Id: number; Reason: string }) => client.post<MigratedAdvertDetail>('refusemigrationadvert', { json: body }),
    /** invitemigrationadvert: the claim link by email, a notice by SMS; 409 at Id: INVITE_REFUSALS. */
    invite: (id: number) => client.post<MigrationInvitation>('invitemigrationadvert', { json: { Id: id } }),
    /** mergemigrationadvert: the import is an existing advert (→ duplicate); 400 AdvertId advertNotFound, 409 Id notMergeable. */
    merge: (body: { Id: number; AdvertId: number }) => client.post<MigrationMerge>('mergemigrationadvert', { json: body }),
  };
}

export const supportMigrationApi = createSupportMigrationApi();

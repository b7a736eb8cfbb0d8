/**
 * The pure parts of support's screens for the old site's adverts (issue 18): the list's addresses, what
 * the browser refuses before uploading, the words of a failed upload, which copy of a picture is shown,
 * and where a possible duplicate leads.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, HttpError } from '#lib/api/errors.ts';
import { MIGRATION_LIMITS } from '#lib/schemas/migration.ts';
import {
  archiveRefusedBeforeSending,
  importFinished,
  migrateAdvertHref,
  migrateAdvertsHref,
  uploadFailureKey,
} from '../../src/dashboards/support/migrate-adverts/MigrateAdvertsScreen.tsx';
import { duplicateHref, pictureCopies } from '../../src/dashboards/support/migrate-advert/MigrateAdvertScreen.tsx';

const fileOf = (size: number) => ({ size, name: 'export.zip' }) as File;

describe('the migrate-adverts list', () => {
  it('keeps its search and page in the address, the import last', () => {
    expect(migrateAdvertsHref({})).toBe('/support/migrate-adverts/');
    expect(migrateAdvertsHref({ import: '7' })).toBe('/support/migrate-adverts/?import=7');
    expect(migrateAdvertsHref({ oldId: ' 1001 ', state: 'invited', import: '7' }, 50)).toBe('/support/migrate-adverts/?oldId=1001&state=invited&import=7&skip=50');
    expect(migrateAdvertHref(12)).toBe('/support/migrate-adverts/12/');
  });

  it('follows an import until it is done or failed', () => {
    expect(importFinished({ status: 'queued' })).toBe(false);
    expect(importFinished({ status: 'running' })).toBe(false);
    expect(importFinished({ status: 'done' })).toBe(true);
    expect(importFinished({ status: 'failed' })).toBe(true);
  });
});

describe('the upload of an export', () => {
  it('asks for a file and refuses one over the limit before sending it', () => {
    expect(archiveRefusedBeforeSending(null)).toBe('required');
    expect(archiveRefusedBeforeSending(fileOf(MIGRATION_LIMITS.archiveBytes + 1))).toBe('archiveTooLarge');
    expect(archiveRefusedBeforeSending(fileOf(1024))).toBeNull();
  });

  it('says the server’s reason, a body too large, or the network', () => {
    const refused = new ApiError({
      url: '/api/support/migrationimport',
      status: 400,
      statusText: 'Bad Request',
      body: { type: 'about:blank', title: 'The file was refused', status: 400, errors: [{ field: 'File', message: 'notAnArchive' }] },
    });
    expect(uploadFailureKey(refused)).toBe('notAnArchive');
    expect(uploadFailureKey(new HttpError({ url: '/api/support/migrationimport', status: 413, statusText: 'Payload Too Large', body: undefined }))).toBe('archiveTooLarge');
    expect(uploadFailureKey(new TypeError('Network error during upload'))).toBe('errors.network');
  });
});

describe('an imported advert', () => {
  it('shows a small WebP copy of a picture and opens the largest', () => {
    const variant = (width: number, format: string) => ({ width, height: width, format, url: `/x/${width}.${format}` });
    const copies = pictureCopies({ variants: [variant(1280, 'avif'), variant(1280, 'webp'), variant(320, 'avif'), variant(320, 'webp'), variant(640, 'webp')] });
    expect(copies?.small.url).toBe('/x/320.webp');
    expect(copies?.large.url).toBe('/x/1280.webp');
    expect(pictureCopies({ variants: [] })).toBeNull();
  });

  it('leads from a possible duplicate to its advert, its import, or the adverts with the same email or phone', () => {
    const item = { email: 'sofie@example.dk', phone: '20304050' };
    expect(duplicateHref({ type: 'advert', id: 5, name: 'Sofie', matches: ['phone'] }, item)).toBe('/support/adverts/5/');
    expect(duplicateHref({ type: 'migratedAdvert', id: 9, name: 'Sofie', matches: ['picture'] }, item)).toBe('/support/migrate-adverts/9/');
    expect(duplicateHref({ type: 'account', id: 3, name: null, matches: ['email', 'phone'] }, item)).toBe('/support/adverts/?email=sofie%40example.dk');
    expect(duplicateHref({ type: 'account', id: 3, name: null, matches: ['phone'] }, item)).toBe('/support/adverts/?phone=20304050');
  });
});

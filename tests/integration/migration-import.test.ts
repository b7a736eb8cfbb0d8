/**
 * The import of the old site's adverts (issue 18; docs/migration-format.md): Support uploads an export
 * archive over HTTP, the durable job `migration-import` imports it line by line (a bad line is reported
 * with its number and reason and does not stop the others), pictures go through the upload pipeline
 * (metadata gone, private), the same file or a file repeating old ids creates nothing twice, support lists,
 * searches, opens and refuses imported adverts, an interrupted import continues where it stopped, and
 * imports nobody claimed are deleted after 90 days while their old ids stay taken.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, auditLog, migratedAdverts, migrationImports } from '#server/db/schema.ts';
import type { MigratedAdvertDetail, MigrationImport } from '#lib/schemas/migration.ts';
import type { PictureUploadAnswer } from '#lib/schemas/media.ts';
import { SYSTEM, type DomainContext } from '#server/domain/context.ts';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { createMediaWork } from '#server/domain/media/media-work.ts';
import { startMigrationImport } from '#server/domain/migration/start-import.ts';
import { runMigrationImport } from '#server/domain/migration/run-import.ts';
import { migrationCleanupHandler } from '#server/jobs/migration-cleanup-job.ts';
import type { JobRow } from '#server/jobs/queue.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, createAdvertiser } from '#tests/support/fixtures.ts';
import { call } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInAdmin, signInSupport } from './support-helpers.ts';
import { uploadFiles } from './pictures-helpers.ts';
import { blocksJpeg, jsonLines, makeZip, type ZipEntry } from './migration-helpers.ts';

const DAY = 86_400_000;
let server: TestServer;
let supportCookie: string;
let seoCookie: string;
let existing: { id: number; accountId: number };

/** Uploads an archive as the browser's FormData does (field `file`). */
async function uploadArchive(bytes: Buffer, cookie = supportCookie, name = 'export.zip'): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), name);
  return fetch(`${server.url}/api/support/migrationimport`, { method: 'POST', body: form, headers: { cookie } });
}

async function getImport(id: number): Promise<MigrationImport> {
  const response = await call(server, '/api/support/migrationimport', { query: { Id: id }, cookie: supportCookie });
  expect(response.status).toBe(200);
  return (await response.json()) as MigrationImport;
}

/** Waits for the server's worker to finish the import. */
async function finished(id: number): Promise<MigrationImport> {
  return vi.waitFor(
    async () => {
      const answer = await getImport(id);
      if (answer.status !== 'done' && answer.status !== 'failed') throw new Error(`still ${answer.status}`);
      return answer;
    },
    { timeout: 60_000, interval: 100 },
  );
}

async function detail(id: number): Promise<MigratedAdvertDetail> {
  const response = await call(server, '/api/support/migrationadvert', { query: { Id: id }, cookie: supportCookie });
  expect(response.status).toBe(200);
  return (await response.json()) as MigratedAdvertDetail;
}

async function byOldId(oldId: number) {
  const [row] = await server.db.select().from(migratedAdverts).where(eq(migratedAdverts.oldId, oldId));
  return row;
}

/** Every file under a folder of the test server's local media storage. */
async function filesUnder(area: 'private' | 'public', folder: string): Promise<string[]> {
  const root = path.join(server.dataDir, 'media', area, folder);
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(path.join(server.dataDir, 'media', area), path.join(e.parentPath, e.name)));
  } catch {
    return [];
  }
}

const good = (oldId: number, extra: Record<string, unknown> = {}) => ({
  oldId,
  kind: 'escort',
  gender: 'woman',
  name: `Sofie ${oldId}`,
  slug: `sofie-koebenhavn-${oldId}`,
  title: 'Diskret og sød pige i København',
  introduction: 'Hej, jeg hedder Sofie.',
  description: 'Jeg tager imod i min lejlighed på Vesterbro.',
  phone: `+45 31 ${String(oldId).padStart(2, '0').slice(-2)} 00 ${String(oldId % 100).padStart(2, '0')}`,
  email: `sofie-${oldId}@example.test`,
  region: 'Region Hovedstaden',
  city: 'København',
  age: 27,
  prices: [{ durationMinutes: 60, incallPrice: 1500, outcallPrice: 2000 }],
  pictures: [],
  ...extra,
});

const EXISTING_PHONE = '20304050';
let sharedPicture: Buffer;
let firstArchive: Buffer;
let firstImport: MigrationImport;

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50, migrationWorker: { pollMs: 100 } } });
  const adminCookie = await signInAdmin(server);
  supportCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'] }, adminCookie));
  seoCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['SEO'] }, adminCookie));

  // An advertiser already on the site: the same phone as one import, and a picture another import repeats.
  existing = await createAdvertiser(server.db, { name: 'Allerede Her', pictureCount: 0, phone: EXISTING_PHONE });
  await server.db.update(accounts).set({ phone: EXISTING_PHONE }).where(eq(accounts.id, existing.accountId));
  sharedPicture = await blocksJpeg(77);
  const uploaded = await uploadFiles(
    server.url,
    '/api/backend/profilepictureuploader',
    [{ name: 'mig.jpg', type: 'image/jpeg', bytes: sharedPicture }],
    await advertiserSessionCookie(server.db, existing.accountId),
  );
  expect(((await uploaded.json()) as PictureUploadAnswer).results[0]?.ok).toBe(true);

  firstArchive = await makeZip([
    {
      name: 'adverts.jsonl',
      bytes: jsonLines([
        /* 1 */ good(1001, { pictures: ['pictures/1001-1.jpg', 'pictures/1001-2.jpg'], titleEn: 'Discreet and sweet in Copenhagen', extraPrices: [{ description: 'Overnatning', price: 8000 }] }),
        /* 2 */ good(1002, { kind: 'thai-massage', phone: '20 30 40 50', email: null, age: null, prices: [] }),
        /* 3 */ '{"oldId": 1099, "kind": "escort",',
        /* 4 */ good(1004, { city: 'Atlantis' }),
        /* 5 */ good(1005, { age: 17 }),
        /* 6 */ good(1006, { pictures: ['pictures/findes-ikke.jpg'] }),
        /* 7 */ '',
        /* 8 */ good(1003, { region: 'hovedstaden', city: 'KØBENHAVN', pictures: ['pictures/1003-1.jpg'] }),
        /* 9 */ good(1009, { phone: '123' }),
        /* 10 */ good(1010, { pictures: ['pictures/1010-1.jpg'] }),
        /* 11 */ good(1001, { name: 'Sofie igen' }),
        /* 12 */ good(1012, { name: '' }),
      ]),
    },
    { name: 'pictures/1001-1.jpg', bytes: await blocksJpeg(1, { exif: true }) },
    { name: 'pictures/1001-2.jpg', bytes: await blocksJpeg(2, { width: 1200, height: 800 }) },
    { name: 'pictures/1003-1.jpg', bytes: sharedPicture },
    { name: 'pictures/1010-1.jpg', bytes: '<html>not a picture</html>' },
  ]);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('the import of an export archive', () => {
  it('is refused without the Support permission, before the file is read', async () => {
    expect((await uploadArchive(firstArchive, seoCookie)).status).toBe(403);
    const anonymous = await fetch(`${server.url}/api/support/migrationimport`, { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(401);
    expect(await server.db.select().from(migrationImports)).toEqual([]);
  });

  it('refuses a file that is not an export archive, and stores nothing', async () => {
    const notZip = await uploadArchive(Buffer.from('just text'));
    expect(notZip.status).toBe(400);
    expect(((await notZip.json()) as { errors: unknown[] }).errors).toEqual([{ field: 'File', message: 'notAnArchive' }]);
    const noAdverts = await uploadArchive(await makeZip([{ name: 'readme.txt', bytes: 'hej' }]));
    expect(((await noAdverts.json()) as { errors: unknown[] }).errors).toEqual([{ field: 'File', message: 'noAdvertsFile' }]);
    expect(await server.db.select().from(migrationImports)).toEqual([]);
    expect(await filesUnder('private', 'migration')).toEqual([]);
  });

  it('imports the good lines, reports each bad line with its number and reason, and skips a repeated old id', async () => {
    const response = await uploadArchive(firstArchive, supportCookie, 'gamle-annoncer-1.zip');
    expect(response.status).toBe(201);
    const queued = (await response.json()) as MigrationImport;
    expect(queued).toMatchObject({ fileName: 'gamle-annoncer-1.zip', status: 'queued' });

    firstImport = await finished(queued.id);
    // The latest imports lead back to it (migrationimports: newest first, without the refused lines).
    const recent = (await (await call(server, '/api/support/migrationimports', { cookie: supportCookie })).json()) as Record<string, unknown>[];
    expect(recent[0]).toMatchObject({ id: queued.id, fileName: 'gamle-annoncer-1.zip', status: 'done' });
    expect(recent[0]).not.toHaveProperty('lineErrors');
    expect(firstImport).toMatchObject({ status: 'done', error: null, totalLines: 12, doneLines: 12, importedLines: 3, skippedLines: 1 });
    expect(firstImport.finishedAt).not.toBeNull();
    expect(firstImport.lineErrors).toEqual([
      { line: 3, reason: 'invalidJson' },
      { line: 4, reason: 'unknownCity', detail: 'Atlantis' },
      { line: 5, reason: 'underAge' },
      { line: 6, reason: 'pictureMissing', detail: 'pictures/findes-ikke.jpg' },
      { line: 9, reason: 'invalidPhone' },
      { line: 10, reason: 'pictureRefused', detail: 'pictures/1010-1.jpg: notAnImage' },
      { line: 12, reason: 'missingField', detail: 'name' },
    ]);

    // The archive itself is gone once read.
    expect(await filesUnder('private', 'migration')).toEqual([]);

    const first = await byOldId(1001);
    expect(first).toMatchObject({ importId: queued.id, line: 1, state: 'imported', kind: 0, gender: 1, name: 'Sofie 1001', email: 'sofie-1001@example.test', oldSlug: 'sofie-koebenhavn-1001' });
    expect(first!.phone).toMatch(/^\d{8}$/);
    expect(first!.data).toMatchObject({
      titleEn: 'Discreet and sweet in Copenhagen',
      age: 27,
      prices: [{ durationMinutes: 60, incallPriceOre: 150_000, outcallPriceOre: 200_000, description: '' }],
      extraPrices: [{ description: 'Overnatning', priceOre: 800_000 }],
    });
    expect(await byOldId(1002)).toMatchObject({ kind: 1, phone: EXISTING_PHONE, email: null, line: 2 });
    // "hovedstaden"/"KØBENHAVN" are our region and city, written another way.
    const third = await byOldId(1003);
    expect(third!.cityId).toBe(first!.cityId);
    for (const refused of [1004, 1005, 1006, 1009, 1010, 1012, 1099]) expect(await byOldId(refused)).toBeUndefined();
  });

  it('keeps the pictures privately, made by the upload pipeline without their metadata', async () => {
    const advert = await detail((await byOldId(1001))!.id);
    expect(advert.pictures.map((p) => [p.fileName, p.width, p.height])).toEqual([
      ['pictures/1001-1.jpg', 480, 360],
      ['pictures/1001-2.jpg', 1200, 800],
    ]);
    expect(advert.pictures[1]!.variants.map((v) => `${v.width}.${v.format}`)).toEqual(['320.avif', '320.webp', '640.avif', '640.webp', '1024.avif', '1024.webp']);

    const url = advert.pictures[0]!.variants.find((v) => v.format === 'webp')!.url;
    const file = await fetch(`${server.url}${url}`, { headers: { cookie: supportCookie } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    const metadata = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.width).toBe(320);
    // Support only: SEO and a visitor are refused; nothing is public.
    expect((await fetch(`${server.url}${url}`, { headers: { cookie: seoCookie } })).status).toBe(403);
    expect((await fetch(`${server.url}${url}`)).status).toBe(401);
    expect((await fetch(`${server.url}${url.replace(/\/0\/320\.webp$/, '/7/320.webp')}`, { headers: { cookie: supportCookie } })).status).toBe(404);
    expect(await filesUnder('public', 'pictures')).toEqual([]);

    // Every stored file belongs to an imported picture: the refused line's picture left nothing behind.
    const rows = await server.db.select({ pictures: migratedAdverts.pictures }).from(migratedAdverts);
    const keys = rows.flatMap((row) => row.pictures.flatMap((p) => [p.originalKey, ...p.variants.map((v) => v.key)])).sort();
    expect(keys).toHaveLength(2 + 2 + 6 + 1 + 2);
    expect(await filesUnder('private', 'pictures/migrated')).toEqual(keys);
  });

  it('answers the earlier import for the same file, and a file repeating old ids creates nothing twice', async () => {
    const again = await uploadArchive(firstArchive, supportCookie, 'same-file-other-name.zip');
    expect(again.status).toBe(200);
    expect(((await again.json()) as MigrationImport).id).toBe(firstImport.id);
    expect(await server.db.select().from(migrationImports)).toHaveLength(1);

    const second = await makeZip([
      {
        name: 'adverts.jsonl',
        bytes: jsonLines([
          good(1001, { name: 'Sofie ændret' }),
          good(1002),
          good(1004, { email: 'ny-1004@example.test' }),
          good(1013, { city: 'Aarhus', region: '', pictures: ['pictures/1013.png'] }),
        ]),
      },
      { name: 'pictures/1013.png', bytes: await sharp(await blocksJpeg(13)).png().toBuffer() },
    ] satisfies ZipEntry[]);
    const response = await uploadArchive(second, supportCookie, 'gamle-annoncer-2.zip');
    expect(response.status).toBe(201);
    const done = await finished(((await response.json()) as MigrationImport).id);
    expect(done).toMatchObject({ status: 'done', totalLines: 4, doneLines: 4, importedLines: 2, skippedLines: 2, lineErrors: [] });
    expect(await server.db.select().from(migratedAdverts)).toHaveLength(5);
    expect((await byOldId(1001))!.name).toBe('Sofie 1001');
  });

  it('lists and searches the imported adverts by old id, name, email, phone and state', async () => {
    const list = async (query: Record<string, string | number>) => {
      const response = await call(server, '/api/support/migrationadverts', { query, cookie: supportCookie });
      expect(response.status).toBe(200);
      return (await response.json()) as { total: number; items: { oldId: number; state: string; pictureCount: number; cityName: string | null }[] };
    };
    const all = await list({});
    expect(all.total).toBe(5);
    expect(all.items.map((item) => item.oldId)).toEqual([1013, 1004, 1003, 1002, 1001]);
    expect(all.items.find((item) => item.oldId === 1001)).toMatchObject({ state: 'imported', pictureCount: 2, cityName: 'København' });
    expect((await list({ Take: 2, Skip: 1 })).items.map((item) => item.oldId)).toEqual([1004, 1003]);
    expect((await list({ OldId: 1002 })).items.map((item) => item.oldId)).toEqual([1002]);
    // Old ids are the old site's: ten digits are searchable (up to PostgreSQL's integer), more are refused.
    expect((await list({ OldId: 2_147_483_647 })).items).toEqual([]);
    const tooBig = await call(server, '/api/support/migrationadverts', { cookie: supportCookie, query: { OldId: '2147483648' } });
    expect(tooBig.status).toBe(400);
    expect((await list({ Name: 'sofie 100' })).total).toBe(4);
    expect((await list({ Email: 'NY-1004@' })).items.map((item) => item.oldId)).toEqual([1004]);
    expect((await list({ Phone: '+45 20 30 40 50' })).items.map((item) => item.oldId)).toEqual([1002]);
    expect((await list({ State: 'refused' })).total).toBe(0);
    expect((await list({ ImportId: firstImport.id })).total).toBe(3);
    const bad = await call(server, '/api/support/migrationadverts', { query: { State: 'lost' }, cookie: supportCookie });
    expect(bad.status).toBe(400);
    expect((await call(server, '/api/support/migrationadverts', { cookie: seoCookie })).status).toBe(403);
  });

  it('shows one imported advert with its old address and the people on the site it may be', async () => {
    const samePhone = await detail((await byOldId(1002))!.id);
    expect(samePhone).toMatchObject({ oldId: 1002, kind: 'thaimassage', state: 'imported', oldPath: '/P/sofie-koebenhavn-1002--1002.html/' });
    expect(samePhone.data).toMatchObject({ title: 'Diskret og sød pige i København', age: null, prices: [] });
    expect(samePhone.deleteOn).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    expect(samePhone.possibleDuplicates).toEqual([
      { type: 'account', id: existing.accountId, name: 'Allerede Her', matches: ['phone'] },
      { type: 'advert', id: existing.id, name: 'Allerede Her', matches: ['phone'] },
    ]);

    const samePicture = await detail((await byOldId(1003))!.id);
    expect(samePicture.possibleDuplicates).toEqual([{ type: 'advert', id: existing.id, name: 'Allerede Her', matches: ['picture'] }]);

    const alone = await detail((await byOldId(1001))!.id);
    expect(alone.possibleDuplicates).toEqual([]);

    expect((await call(server, '/api/support/migrationadvert', { query: { Id: 987_654 }, cookie: supportCookie })).status).toBe(404);
  });

  it('refuses an imported advert with a reason, once, and audits it', async () => {
    const id = (await byOldId(1004))!.id;
    const refused = await call(server, '/api/support/refusemigrationadvert', { body: { Id: id, Reason: 'Annoncøren ønsker ikke at flytte med.' }, cookie: supportCookie });
    expect(refused.status).toBe(200);
    expect(await refused.json()).toMatchObject({ id, state: 'refused', refusedReason: 'Annoncøren ønsker ikke at flytte med.' });
    const again = await call(server, '/api/support/refusemigrationadvert', { body: { Id: id, Reason: 'Igen.' }, cookie: supportCookie });
    expect(again.status).toBe(409);
    const missingReason = await call(server, '/api/support/refusemigrationadvert', { body: { Id: id }, cookie: supportCookie });
    expect(missingReason.status).toBe(400);
    const audit = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'migration.refuse'), eq(auditLog.targetId, String(id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: 'support', before: { state: 'imported' }, after: { state: 'refused' }, reason: 'Annoncøren ønsker ikke at flytte med.' });
  });

  it('continues an interrupted import after the last line it recorded', async () => {
    const storage = createLocalStorage(path.join(server.dataDir, 'media'));
    const media = { storage, work: createMediaWork(1) };
    const ctx: DomainContext = { db: server.db, actor: SYSTEM, events: { publish: () => {} }, now: () => new Date(), storage };
    const archive = await makeZip([
      { name: 'adverts.jsonl', bytes: jsonLines([good(2001, { pictures: ['a.jpg'] }), good(2002, { pictures: ['b.jpg'] }), good(2003), good(1001), '{bad']) },
      { name: 'a.jpg', bytes: await blocksJpeg(21) },
      { name: 'b.jpg', bytes: await blocksJpeg(22) },
    ]);
    const { writeFile, mkdtemp, rm } = await import('node:fs/promises');
    const os = await import('node:os');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migration-resume-'));
    const file = path.join(dir, 'resume.zip');
    await writeFile(file, archive);
    const { createHash } = await import('node:crypto');
    // Queued without a job: this test runs it itself.
    const started = await startMigrationImport(
      { ...ctx, actor: { type: 'support', supportUserId: 1, sessionId: 'x', roles: ['Support'], permissions: ['migration:manage:any'] } },
      { storage, queueImport: async () => {} },
      { path: file, fileName: 'resume.zip', bytes: archive.length, sha256: createHash('sha256').update(archive).digest('hex'), truncated: false },
    );
    await rm(dir, { recursive: true, force: true });

    // The server stops after the second imported line (its close aborts the run between two lines).
    const stopping = new AbortController();
    let imported = 0;
    await expect(
      runMigrationImport(ctx, { media, signal: stopping.signal, heartbeat: async () => void (++imported === 2 && stopping.abort()) }, started.import.id),
    ).rejects.toThrow();
    const cut = (await server.db.select().from(migrationImports).where(eq(migrationImports.id, started.import.id)))[0]!;
    expect(cut).toMatchObject({ status: 'running', doneLines: 2, importedLines: 2, totalLines: 5 });

    await runMigrationImport(ctx, { media }, started.import.id);
    expect(await getImport(started.import.id)).toMatchObject({
      status: 'done',
      doneLines: 5,
      importedLines: 3,
      skippedLines: 1,
      lineErrors: [{ line: 5, reason: 'invalidJson' }],
    });
    expect((await byOldId(2002))!.pictures).toHaveLength(1);
    expect(await server.db.select().from(migratedAdverts)).toHaveLength(8);
  });

  it('tries a failed import again when the same file is uploaded again, after its last line done', async () => {
    const archive = await makeZip([{ name: 'adverts.jsonl', bytes: jsonLines([good(3001), good(3002)]) }]);
    const first = await finished(((await (await uploadArchive(archive)).json()) as MigrationImport).id);
    expect(first).toMatchObject({ status: 'done', importedLines: 2 });
    // As if the job had given up after line 1, and its archive were gone.
    await server.db.delete(migratedAdverts).where(eq(migratedAdverts.oldId, 3002));
    await server.db
      .update(migrationImports)
      .set({ status: 'failed', error: 'failed', storageKey: null, doneLines: 1, importedLines: 1 })
      .where(eq(migrationImports.id, first.id));
    expect(await getImport(first.id)).toMatchObject({ status: 'failed', error: 'failed' });

    const again = await uploadArchive(archive);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: first.id, status: 'queued', error: null });
    expect(await finished(first.id)).toMatchObject({ status: 'done', doneLines: 2, importedLines: 2, skippedLines: 0, lineErrors: [] });
    expect(await byOldId(3002)).toMatchObject({ importId: first.id, line: 2 });
  });

  it('deletes imports nobody claimed after 90 days, pictures included, and never takes their old ids again', async () => {
    const storage = createLocalStorage(path.join(server.dataDir, 'media'));
    const log = pino({ level: 'silent' });
    const job = { id: 0, queue: 'migration.cleanup', payload: {}, attempts: 1, max_attempts: 5 } satisfies JobRow;
    // 89 days on: nothing yet.
    await migrationCleanupHandler({ db: server.db, storage, log, now: () => new Date(Date.now() + 89 * DAY) })(job);
    expect((await byOldId(1001))!.state).toBe('imported');

    // A claimed one stays (the claim flow sets claimed_at and the state).
    await server.db.update(migratedAdverts).set({ state: 'claimed', claimedAt: new Date() }).where(eq(migratedAdverts.oldId, 1003));
    // One support merged into an existing advertiser's advert keeps leading there, without its imported data.
    const existing = await createAdvertiser(server.db, { name: 'Fandtes Før' });
    await server.db.update(migratedAdverts).set({ state: 'duplicate', advertId: existing.id }).where(eq(migratedAdverts.oldId, 1002));
    await migrationCleanupHandler({ db: server.db, storage, log, now: () => new Date(Date.now() + 91 * DAY) })(job);

    const deleted = await byOldId(1001);
    // The old slug stays with the old id: the whole old address answers Gone (Netlify's _redirects needs it).
    expect(deleted).toMatchObject({ state: 'deleted', name: '', email: null, phone: null, oldSlug: 'sofie-koebenhavn-1001', data: {}, pictures: [] });
    expect(await byOldId(1002)).toMatchObject({ state: 'duplicate', advertId: existing.id, email: null, phone: null, data: {}, pictures: [] });
    expect(deleted!.deletedAt).not.toBeNull();
    expect(await byOldId(1004)).toMatchObject({ state: 'deleted', refusedReason: null });
    expect((await byOldId(1003))!.state).toBe('claimed');
    const left = (await server.db.select({ pictures: migratedAdverts.pictures }).from(migratedAdverts)).flatMap((row) =>
      row.pictures.flatMap((p) => [p.originalKey, ...p.variants.map((v) => v.key)]),
    );
    expect(await filesUnder('private', 'pictures/migrated')).toEqual(left.sort());
    expect(left.length).toBeGreaterThan(0);

    const view = await detail(deleted!.id);
    expect(view).toMatchObject({ state: 'deleted', data: null, pictures: [], possibleDuplicates: [], deleteOn: null });

    // The old id stays taken: an export naming it again imports nothing.
    const response = await uploadArchive(await makeZip([{ name: 'adverts.jsonl', bytes: jsonLines([good(1001)]) }]), supportCookie, 'igen.zip');
    const done = await finished(((await response.json()) as MigrationImport).id);
    expect(done).toMatchObject({ importedLines: 0, skippedLines: 1 });
    expect((await byOldId(1001))!.state).toBe('deleted');
  });
});

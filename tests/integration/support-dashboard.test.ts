/**
 * GET /api/support/pendingcounts over real HTTP (issue 6, support dashboard/): what waits in each
 * moderation queue and since when, for the Support role; 401 without a session, 403 without Support.
 * New adverts, reports and appeals arrive through the real calls (createprofile, reportadvert,
 * decidecontentreport, declineimageitem, appealstatement); verifications, pictures, videos and reviews are
 * written as rows while their own flows are built in later parts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adverts, pictures, reviews, statementsOfReasons, verifications, videos } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { call, createProfileOverHttp } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';

type Count = { count: number; oldest: string | null };
type Counts = {
  newAdverts: Count;
  verifications: Count;
  pendingChanges: Count;
  pendingMedia: Count;
  reports: Count & { urgent: number };
  pendingReviews: Count;
  appeals: Count;
};

let server: TestServer;
let supportCookie: string;

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  const support = await createSupportUserOverHttp(server, { permissions: ['Support'] });
  supportCookie = await signInSupport(server, support);
});
afterAll(async () => {
  await server?.close();
});

async function counts(): Promise<Counts> {
  const response = await call(server, '/api/support/pendingcounts', { cookie: supportCookie });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('cache-control')).toContain('no-store');
  return (await response.json()) as Counts;
}

describe('support dashboard: pending counts', () => {
  it('answers 401 without a session and 403 to a support user without the Support role', async () => {
    expect((await call(server, '/api/support/pendingcounts')).status).toBe(401);
    const seo = await createSupportUserOverHttp(server, { permissions: ['SEO'] });
    const seoCookie = await signInSupport(server, seo);
    const refused = await call(server, '/api/support/pendingcounts', { cookie: seoCookie });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
  });

  it('counts every queue with the age of its oldest item, and nothing when nothing waits', async () => {
    const empty = await counts();
    for (const queue of Object.values(empty)) expect(queue).toMatchObject({ count: 0, oldest: null });
    expect(empty.reports.urgent).toBe(0);

    // Two new adverts through sign-up: both wait for review; the oldest is the first one's creation.
    const first = await createProfileOverHttp(server);
    const second = await createProfileOverHttp(server);
    const [firstRow] = await server.db.select().from(adverts).where(eq(adverts.id, first.profile.advertId));
    let now = await counts();
    expect(now.newAdverts.count).toBe(2);
    expect(now.newAdverts.oldest).toBe(firstRow!.createdAt.toISOString());

    // Reports through the public form: a suspected minor is urgent, spam is not.
    for (const Reason of ['minor', 'spam']) {
      const report = await call(server, '/api/frontend/reportadvert', {
        body: { AdvertId: second.profile.advertId, Reason, GoodFaith: true, Name: 'Mette Prøve', Email: 'mette@example.test' },
      });
      expect(report.status, await report.clone().text()).toBe(201);
    }
    now = await counts();
    expect(now.reports).toMatchObject({ count: 2, urgent: 1 });
    expect(now.reports.oldest).not.toBeNull();

    // Approve the first advert, then let it propose a change: it leaves new adverts for pending changes.
    await server.db
      .update(adverts)
      .set({ status: 1, approvedAt: new Date(), pendingChanges: { name: 'Nyt Navn' } })
      .where(eq(adverts.id, first.profile.advertId));
    await server.db.update(adverts).set({ pendingChanges: {} }).where(eq(adverts.id, second.profile.advertId));
    now = await counts();
    expect(now.newAdverts.count).toBe(1);
    expect(now.pendingChanges.count).toBe(1);

    // Verification, media and reviews waiting (rows as their flows will write them).
    const accountId = first.profile.id;
    const advertId = first.profile.advertId;
    const old = new Date(Date.now() - 3 * 3_600_000);
    await server.db.insert(verifications).values({ advertId, accountId, method: 'document', status: 1, createdAt: old });
    await server.db.insert(verifications).values({ advertId, accountId, method: 'document', status: 2 });
    await server.db.insert(pictures).values([
      { advertId, storageKey: 'pictures/a', width: 10, height: 10, moderationStatus: 0, createdAt: old },
      { advertId, storageKey: 'pictures/b', width: 10, height: 10, moderationStatus: 1 },
      // Uploaded during sign-up and never attached: not support's business yet.
      { advertId: null, storageKey: 'pictures/c', width: 10, height: 10, moderationStatus: 0 },
    ] as (typeof pictures.$inferInsert)[]);
    await server.db.insert(videos).values([
      { advertId, storageKey: 'videos/a', status: 2, moderationStatus: 0 },
      // Still converting: nothing to look at yet.
      { advertId, storageKey: 'videos/b', status: 1, moderationStatus: 0 },
    ] as (typeof videos.$inferInsert)[]);
    await server.db.insert(reviews).values([
      { advertId, rating: 5, text: 'Venlig og punktlig.', authorName: 'Anders', status: 0 },
      { advertId, rating: 4, text: 'Fint.', authorName: 'Bo', status: 1 },
    ] as (typeof reviews.$inferInsert)[]);

    now = await counts();
    expect(now.verifications).toEqual({ count: 1, oldest: old.toISOString() });
    expect(now.pendingMedia).toEqual({ count: 2, oldest: old.toISOString() });
    expect(now.pendingReviews.count).toBe(1);
  });
  it('decided reports leave the count; open appeals are counted with the oldest appeal', async () => {
    const before = await counts();
    const advertiser = await createProfileOverHttp(server);
    const advertId = advertiser.profile.advertId;
    const ids: number[] = [];
    for (const Reason of ['trafficking', 'fake']) {
      const report = await call(server, '/api/frontend/reportadvert', {
        body: { AdvertId: advertId, Reason, GoodFaith: true, Name: 'Mette Prøve', Email: 'mette@example.test' },
      });
      ids.push(((await report.json()) as { id: number }).id);
    }
    let now = await counts();
    expect(now.reports.count).toBe(before.reports.count + 2);
    expect(now.reports.urgent).toBe(before.reports.urgent + 1);

    const decided = await call(server, '/api/support/decidecontentreport', {
      body: { Id: ids[0], Decision: 'no-action', Reason: 'Intet at komme efter.' },
      cookie: supportCookie,
    });
    expect(decided.status, await decided.clone().text()).toBe(200);
    now = await counts();
    expect(now.reports.count).toBe(before.reports.count + 1);
    expect(now.reports.urgent).toBe(before.reports.urgent);

    // A declined picture is a statement of reasons; the advertiser's appeal waits for support.
    const [picture] = await server.db
      .insert(pictures)
      .values({ advertId, storageKey: 'pictures/appeal', width: 10, height: 10, moderationStatus: 0 } as typeof pictures.$inferInsert)
      .returning();
    const declined = await call(server, '/api/backend/declineimageitem', { body: { Id: picture!.id, Reason: 'Uskarpt.' }, cookie: supportCookie });
    expect(declined.status).toBe(200);
    expect((await counts()).appeals).toEqual(before.appeals);
    const statements = await call(server, '/api/backend/statementsofreasons', { cookie: advertiser.cookie });
    const [statement] = (await statements.json()) as { id: number }[];
    const appealed = await call(server, '/api/backend/appealstatement', {
      body: { Id: statement!.id, Text: 'Billedet er skarpt nok.' },
      cookie: advertiser.cookie,
    });
    expect(appealed.status).toBe(204);
    const [row] = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.id, statement!.id));
    now = await counts();
    expect(now.appeals).toEqual({ count: before.appeals.count + 1, oldest: before.appeals.oldest ?? row!.appealedAt!.toISOString() });
  });
});

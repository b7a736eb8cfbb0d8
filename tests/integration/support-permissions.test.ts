/**
 * Every support call against every permission (issue 6): one row per call, one explicit expected status
 * per column: no session, a Support user, an SEO user, an Administration user with two-step sign-in, and
 * an Administration user without it (who acts without Administration until they turn it on).
 * Bodies are valid (or name things that do not exist), so that a cell shows the permission check and
 * not input validation. The screens' table is tests/unit/support-routes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { call, uniqueEmail } from './accounts-helpers.ts';
import { createSupportUserOverHttp, enableTwoFactor, signInAdmin, signInSupport, SUPPORT_PASSWORD } from './support-helpers.ts';
import { wrongCode } from '#tests/support/totp.ts';

const COLUMNS = ['none', 'Support', 'SEO', 'Administration', 'Administration without two-step'] as const;
type Column = (typeof COLUMNS)[number];
type Expected = Record<Column, number>;

type Row = {
  call: string;
  method: 'GET' | 'POST';
  path: string;
  /** Made fresh for each cell (names that must be unique), for the column's user. */
  body?: (column: Column) => Record<string, unknown>;
  query?: Record<string, string | number>;
  expected: Expected;
};

const NO_SUCH_ID = 987_654;
/** The authenticator secret each column's twofactorsetup answered (pending until confirmed). */
const pendingSecrets = new Map<Column, string>();
/** A code the server refuses for the column's pending secret (any code is wrong without one). */
const wrongCodeFor = (column: Column) => {
  const secret = pendingSecrets.get(column);
  return secret ? wrongCode(secret) : '000000';
};
const cells = (none: number, support: number, seo: number, admin: number, adminWithoutTwoStep: number): Expected => ({
  none,
  Support: support,
  SEO: seo,
  Administration: admin,
  'Administration without two-step': adminWithoutTwoStep,
});

const table: Row[] = [
  // Profile and two-step sign-in: any signed-in support user.
  { call: 'supportprofile', method: 'GET', path: '/api/support/supportprofile', expected: cells(401, 200, 200, 200, 200) },
  // With the password (all these users have SUPPORT_PASSWORD); Administration has an authenticator on, so a
  // new one needs a current code of it instead (none given: 400 codeRequired), never a session alone.
  { call: 'twofactorsetup', method: 'POST', path: '/api/support/twofactorsetup', body: () => ({ Password: SUPPORT_PASSWORD }), expected: cells(401, 200, 200, 400, 200) },
  // A wrong code: refused as wrong for everyone signed in (after the setup row above left a pending secret).
  // (A code of none of the steps the server accepts for that secret: a fixed 000000 is right once in 10^6.)
  { call: 'twofactorconfirm', method: 'POST', path: '/api/support/twofactorconfirm', body: (column) => ({ Code: wrongCodeFor(column) }), expected: cells(401, 400, 400, 400, 400) },
  // Only a user with two-step on can turn it off; Administration may not.
  { call: 'twofactordisable', method: 'POST', path: '/api/support/twofactordisable', body: () => ({ Code: '000000' }), expected: cells(401, 400, 400, 409, 409) },

  // Support users: Administration.
  { call: 'users (list)', method: 'GET', path: '/api/support/users', expected: cells(401, 403, 403, 200, 403) },
  { call: 'user', method: 'GET', path: '/api/support/user', query: { Id: NO_SUCH_ID }, expected: cells(401, 403, 403, 404, 403) },
  {
    call: 'users (create)',
    method: 'POST',
    path: '/api/support/users',
    body: () => ({ Email: uniqueEmail('table'), Name: 'Tabel Test', Password: SUPPORT_PASSWORD, Permissions: ['SEO'] }),
    expected: cells(401, 403, 403, 201, 403),
  },
  { call: 'removeuser', method: 'POST', path: '/api/support/removeuser', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 403, 403, 404, 403) },
  // The outbox: Administration only (outbox:read:any; its links and codes are masked outside development, issue 15).
  { call: 'outbox', method: 'GET', path: '/api/support/outbox', expected: cells(401, 403, 403, 200, 403) },

  // Statistics and the transparency report: Administration only (stats:read:any, issue 18).
  { call: 'statisticsperday', method: 'GET', path: '/api/support/statisticsperday', expected: cells(401, 403, 403, 200, 403) },
  { call: 'statisticspermonth', method: 'GET', path: '/api/support/statisticspermonth', expected: cells(401, 403, 403, 200, 403) },
  { call: 'statisticsprofilecreated', method: 'GET', path: '/api/support/statisticsprofilecreated', expected: cells(401, 403, 403, 200, 403) },
  {
    call: 'transparencyreport',
    method: 'GET',
    path: '/api/support/transparencyreport',
    query: { From: '2026-01-01', To: '2026-03-31' },
    expected: cells(401, 403, 403, 200, 403),
  },

  // Moderation: Support.
  { call: 'pendingcounts', method: 'GET', path: '/api/support/pendingcounts', expected: cells(401, 200, 403, 403, 403) },
  ...(['approveimageitem', 'approvevideoitem'] as const).map(
    (name): Row => ({ call: name, method: 'POST', path: `/api/backend/${name}`, body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 404, 403, 403, 403) }),
  ),
  ...(['declineimageitem', 'removeimageitem', 'declinevideoitem', 'removevideoitem'] as const).map(
    (name): Row => ({
      call: name,
      method: 'POST',
      path: `/api/backend/${name}`,
      body: () => ({ Id: NO_SUCH_ID, Reason: 'Billedet viser ikke annoncøren.' }),
      expected: cells(401, 404, 403, 403, 403),
    }),
  ),

  // Review of new adverts and pending changes, and the risk words: Support (advert:moderate:any).
  { call: 'reviewqueue', method: 'GET', path: '/api/support/reviewqueue', expected: cells(401, 200, 403, 403, 403) },
  { call: 'reviewadvert (GET)', method: 'GET', path: '/api/support/reviewadvert', query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) },
  {
    call: 'reviewadvert (save)',
    method: 'POST',
    path: '/api/support/reviewadvert',
    body: () => ({ Id: NO_SUCH_ID, Fields: [{ Field: 'name', Action: 'approve' }] }),
    expected: cells(401, 404, 403, 403, 403),
  },
  { call: 'riskwords (list)', method: 'GET', path: '/api/support/riskwords', expected: cells(401, 200, 403, 403, 403) },
  {
    call: 'riskwords (add)',
    method: 'POST',
    path: '/api/support/riskwords',
    body: () => ({ Word: `tabelord ${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 8)}x` }),
    expected: cells(401, 201, 403, 403, 403),
  },
  { call: 'removeriskword', method: 'POST', path: '/api/support/removeriskword', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 404, 403, 403, 403) },

  // Reports and appeals: Support (reports:decide:any, advert:moderate:any).
  { call: 'contentreports', method: 'GET', path: '/api/support/contentreports', expected: cells(401, 200, 403, 403, 403) },
  { call: 'contentreport', method: 'GET', path: '/api/support/contentreport', query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) },
  {
    call: 'decidecontentreport',
    method: 'POST',
    path: '/api/support/decidecontentreport',
    body: () => ({ Id: NO_SUCH_ID, Decision: 'lock-advert', Reason: 'Tabeltest.', Rule: 'terms.other' }),
    expected: cells(401, 404, 403, 403, 403),
  },
  { call: 'appeals', method: 'GET', path: '/api/support/appeals', expected: cells(401, 200, 403, 403, 403) },
  { call: 'appeal', method: 'GET', path: '/api/support/appeal', query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) },
  {
    call: 'decideappeal',
    method: 'POST',
    path: '/api/support/decideappeal',
    body: () => ({ Id: NO_SUCH_ID, Decision: 'upheld', Reason: 'Tabeltest.' }),
    expected: cells(401, 404, 403, 403, 403),
  },

  // Visitors' reviews: Support (reviews:moderate:any).
  { call: 'pendingreviews', method: 'GET', path: '/api/support/pendingreviews', expected: cells(401, 200, 403, 403, 403) },
  { call: 'pendingreview', method: 'GET', path: '/api/support/pendingreview', query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) },
  {
    call: 'decidereview',
    method: 'POST',
    path: '/api/support/decidereview',
    body: () => ({ Id: NO_SUCH_ID, Decision: 'reject', Reason: 'Tabeltest.' }),
    expected: cells(401, 404, 403, 403, 403),
  },

  // Verification of advertisers: Support (validation:decide:any).
  { call: 'validations', method: 'GET', path: '/api/support/validations', expected: cells(401, 200, 403, 403, 403) },
  { call: 'validation', method: 'GET', path: '/api/support/validation', query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) },
  {
    call: 'validationfile',
    method: 'GET',
    path: '/api/support/validationfile',
    query: { Id: NO_SUCH_ID, Kind: 'document' },
    expected: cells(401, 404, 403, 403, 403),
  },
  { call: 'acceptvalidation', method: 'POST', path: '/api/support/acceptvalidation', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 404, 403, 403, 403) },
  ...(['declinevalidation', 'rejectvalidation'] as const).map(
    (name): Row => ({
      call: name,
      method: 'POST',
      path: `/api/support/${name}`,
      body: () => ({ Id: NO_SUCH_ID, Reason: 'Tabeltest.', Rule: 'terms.identity' }),
      expected: cells(401, 404, 403, 403, 403),
    }),
  ),

  // Impersonation: Support (advertiser:impersonate:any). The frontend's impersonate with a link that does not
  // exist: 401 without a support session, refused (403) for everyone else.
  { call: 'impersonation', method: 'POST', path: '/api/support/impersonation', body: () => ({ ProfileId: NO_SUCH_ID }), expected: cells(401, 404, 403, 403, 403) },
  { call: 'impersonate (frontend)', method: 'POST', path: '/api/frontend/impersonate', body: () => ({ Url: 'not-a-real-link' }), expected: cells(401, 403, 403, 403, 403) },

  // Adverts (support's advert pages): Support (advert:moderate:any).
  { call: 'profiles', method: 'GET', path: '/api/support/profiles', query: { Name: 'tabel' }, expected: cells(401, 200, 403, 403, 403) },
  ...(['profile', 'currentmedia', 'deletedmedia', 'advertreviews', 'advertreports', 'loginhistories', 'actionhistories', 'advertmessages'] as const).map(
    (name): Row => ({ call: name, method: 'GET', path: `/api/support/${name}`, query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) }),
  ),
  // Media files of any state (docs/decisions/013): Support (advert:moderate:any).
  ...(['picture/987654/320.webp', 'video/987654/video.mp4'] as const).map(
    (file): Row => ({ call: `mediafile/${file}`, method: 'GET', path: `/api/support/mediafile/${file}`, expected: cells(401, 404, 403, 403, 403) }),
  ),
  {
    call: 'profilestatus',
    method: 'POST',
    path: '/api/support/profilestatus',
    body: () => ({ Id: NO_SUCH_ID, Status: 2, Rule: 'terms.other', Reason: 'Tabeltest.' }),
    expected: cells(401, 404, 403, 403, 403),
  },
  {
    call: 'advertmessages (send)',
    method: 'POST',
    path: '/api/support/advertmessages',
    body: () => ({ Id: NO_SUCH_ID, Title: 'Tabeltest', Body: 'Tabeltest.' }),
    expected: cells(401, 404, 403, 403, 403),
  },

  // Adverts from the old site (issue 18): Support (migration:manage:any). The upload is refused before its
  // file is read: Support, allowed, gets 400 for the JSON body that carries no archive.
  { call: 'migrationimport (upload)', method: 'POST', path: '/api/support/migrationimport', body: () => ({}), expected: cells(401, 400, 403, 403, 403) },
  { call: 'migrationimport', method: 'GET', path: '/api/support/migrationimport', query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) },
  { call: 'migrationimports', method: 'GET', path: '/api/support/migrationimports', expected: cells(401, 200, 403, 403, 403) },
  { call: 'migrationadverts', method: 'GET', path: '/api/support/migrationadverts', query: { Take: 5 }, expected: cells(401, 200, 403, 403, 403) },
  { call: 'migrationadvert', method: 'GET', path: '/api/support/migrationadvert', query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) },
  {
    call: 'refusemigrationadvert',
    method: 'POST',
    path: '/api/support/refusemigrationadvert',
    body: () => ({ Id: NO_SUCH_ID, Reason: 'Tabeltest.' }),
    expected: cells(401, 404, 403, 403, 403),
  },
  { call: 'migrationpicture', method: 'GET', path: '/api/support/migrationpicture/987654/0/320.webp', expected: cells(401, 404, 403, 403, 403) },
  // The claim's support side: the invitation (its link goes to the owner only) and a merge into an existing advert.
  { call: 'invitemigrationadvert', method: 'POST', path: '/api/support/invitemigrationadvert', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 404, 403, 403, 403) },
  {
    call: 'mergemigrationadvert',
    method: 'POST',
    path: '/api/support/mergemigrationadvert',
    body: () => ({ Id: NO_SUCH_ID, AdvertId: NO_SUCH_ID }),
    expected: cells(401, 404, 403, 403, 403),
  },

  // Orders and the bookkeeper's CSV files: Support (orders:manage:any). Products: Administration (products:manage:any).
  { call: 'orders', method: 'GET', path: '/api/support/orders', query: { TransactionId: 'tabel' }, expected: cells(401, 200, 403, 403, 403) },
  ...(['order', 'orderdocument'] as const).map(
    (name): Row => ({ call: name, method: 'GET', path: `/api/support/${name}`, query: { Id: NO_SUCH_ID }, expected: cells(401, 404, 403, 403, 403) }),
  ),
  ...(['ordersvatcsv', 'orderdocumentscsv'] as const).map(
    (name): Row => ({ call: name, method: 'GET', path: `/api/support/${name}`, query: { From: '2026-01-01', To: '2026-01-31' }, expected: cells(401, 200, 403, 403, 403) }),
  ),
  {
    call: 'orderstatus',
    method: 'POST',
    path: '/api/support/orderstatus',
    body: () => ({ Id: NO_SUCH_ID, Status: 'refunded', Reason: 'Tabeltest.' }),
    expected: cells(401, 404, 403, 403, 403),
  },
  { call: 'products', method: 'GET', path: '/api/support/products', expected: cells(401, 403, 403, 200, 403) },
  {
    call: 'product',
    method: 'POST',
    path: '/api/support/product',
    body: () => ({ Id: NO_SUCH_ID, NameDa: 'Tabelprodukt', NameEn: 'Table product', PriceOre: 9900, Days: 30, Active: true }),
    expected: cells(401, 403, 403, 404, 403),
  },

  // News for advertisers: Administration (news:manage:any).
  { call: 'news (list)', method: 'GET', path: '/api/support/news', query: { Take: 5 }, expected: cells(401, 403, 403, 200, 403) },
  { call: 'newsitem', method: 'GET', path: '/api/support/newsitem', query: { Id: NO_SUCH_ID }, expected: cells(401, 403, 403, 404, 403) },
  {
    call: 'news (add)',
    method: 'POST',
    path: '/api/support/news',
    body: () => ({ LocaleId: 'da', Title: 'Tabelnyhed', Body: 'Tekst.', PublishFrom: '', EndsOn: '', Pinned: false }),
    expected: cells(401, 403, 403, 200, 403),
  },
  { call: 'deletenews', method: 'POST', path: '/api/support/deletenews', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 403, 403, 404, 403) },

  // SEO.
  {
    call: 'landingpages (create)',
    method: 'POST',
    path: '/api/support/landingpages',
    body: () => ({ type: 'article', url: `tabel-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`, title: 'Tabeltest' }),
    expected: cells(401, 403, 201, 403, 403),
  },
  // SEO pages (issue 17; spec §7 "SEO pages": list, add, delete, image delete): SEO (seo:pages:any).
  { call: 'landingpages (list)', method: 'GET', path: '/api/support/landingpages', query: { Take: 5 }, expected: cells(401, 403, 200, 403, 403) },
  { call: 'landingpage', method: 'GET', path: '/api/support/landingpage', query: { Id: NO_SUCH_ID }, expected: cells(401, 403, 404, 403, 403) },
  {
    call: 'landingpage (add)',
    method: 'POST',
    path: '/api/support/landingpage',
    body: () => ({ type: 'free', url: `tabel-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`, titleDa: 'Tabelside' }),
    expected: cells(401, 403, 200, 403, 403),
  },
  { call: 'publishlandingpage', method: 'POST', path: '/api/support/publishlandingpage', body: () => ({ Id: NO_SUCH_ID, Published: true }), expected: cells(401, 403, 404, 403, 403) },
  { call: 'deletelandingpage', method: 'POST', path: '/api/support/deletelandingpage', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 403, 404, 403, 403) },
  {
    call: 'deletelandingpageimage',
    method: 'POST',
    path: '/api/support/deletelandingpageimage',
    body: () => ({ Id: NO_SUCH_ID, Key: 'landing-pages/0/x-640.webp' }),
    expected: cells(401, 403, 404, 403, 403),
  },

  // Regions and cities: SEO (seo:pages:any).
  { call: 'regions', method: 'GET', path: '/api/support/regions', expected: cells(401, 403, 200, 403, 403) },
  { call: 'cities (list)', method: 'GET', path: '/api/support/cities', query: { RegionId: NO_SUCH_ID }, expected: cells(401, 403, 404, 403, 403) },
  { call: 'cities (add)', method: 'POST', path: '/api/support/cities', body: () => ({ RegionId: NO_SUCH_ID, Name: 'Tabelby' }), expected: cells(401, 403, 404, 403, 403) },
  { call: 'renamecity', method: 'POST', path: '/api/support/renamecity', body: () => ({ Id: NO_SUCH_ID, Name: 'Tabelby' }), expected: cells(401, 403, 404, 403, 403) },

  // Visitors' search terms: SEO (seo:keywords:any).
  ...(['matched', 'unmatched', 'paired', 'ignored'] as const).map((list) => ({
    call: `${list}keywords`,
    method: 'GET' as const,
    path: `/api/support/${list}keywords`,
    query: { Take: 5, Days: 30 },
    expected: cells(401, 403, 200, 403, 403),
  })),
  { call: 'keyword', method: 'GET', path: '/api/support/keyword', query: { Keyword: 'ingen saadan term' }, expected: cells(401, 403, 404, 403, 403) },
  { call: 'keyword (insert)', method: 'POST', path: '/api/support/keyword', body: () => ({ Keyword: 'tabelstoej', Kind: 'ignored' }), expected: cells(401, 403, 200, 403, 403) },
  { call: 'deletekeyword', method: 'POST', path: '/api/support/deletekeyword', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 403, 404, 403, 403) },
  { call: 'removepair', method: 'POST', path: '/api/support/removepair', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 403, 404, 403, 403) },
  { call: 'removeignore', method: 'POST', path: '/api/support/removeignore', body: () => ({ Id: NO_SUCH_ID }), expected: cells(401, 403, 404, 403, 403) },

  // A rebuild of the site: any support permission (frontend cleancache); an Administration-only user
  // without two-step sign-in has none yet.
  { call: 'cleancache', method: 'POST', path: '/api/frontend/cleancache', expected: cells(401, 204, 204, 204, 403) },

  // Without a session by design: the same answer for everyone.
  // Whether the caller has a support session (the sign-in screens ask it first): 200 for all, never a 401.
  { call: 'session', method: 'GET', path: '/api/support/session', expected: cells(200, 200, 200, 200, 200) },
  { call: 'resetpassword', method: 'POST', path: '/api/support/resetpassword', body: () => ({ Email: 'nobody@example.test' }), expected: cells(204, 204, 204, 204, 204) },
  {
    call: 'changepassword (a link that does not exist)',
    method: 'POST',
    path: '/api/support/changepassword',
    body: () => ({ Token: 'not-a-real-token', Id: NO_SUCH_ID, Password: SUPPORT_PASSWORD }),
    expected: cells(400, 400, 400, 400, 400),
  },
];

let server: TestServer;
const cookies = new Map<Column, string | undefined>();

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  const adminCookie = await signInAdmin(server);
  cookies.set('none', undefined);
  for (const role of ['Support', 'SEO'] as const) {
    const user = await createSupportUserOverHttp(server, { permissions: [role] }, adminCookie);
    cookies.set(role, await signInSupport(server, user));
  }
  const admin = await createSupportUserOverHttp(server, { permissions: ['Administration'] }, adminCookie);
  const first = await signInSupport(server, admin);
  const secret = await enableTwoFactor(server, first);
  cookies.set('Administration', await signInSupport(server, { ...admin, secret }));
  const withoutTwoStep = await createSupportUserOverHttp(server, { permissions: ['Administration'] }, adminCookie);
  cookies.set('Administration without two-step', await signInSupport(server, withoutTwoStep));
});
afterAll(async () => {
  await server?.close();
});

describe('every support call against every permission', () => {
  it.each(table)('$call', async (row) => {
    const got: Partial<Record<Column, number>> = {};
    for (const column of COLUMNS) {
      const response = await call(server, row.path, {
        method: row.method,
        cookie: cookies.get(column),
        ...(row.body ? { body: row.body(column) } : {}),
        ...(row.query ? { query: row.query } : {}),
      });
      got[column] = response.status;
      if (row.call === 'twofactorsetup' && response.status === 200) pendingSecrets.set(column, ((await response.json()) as { secret: string }).secret);
      if (response.status === 401 || response.status === 403) {
        expect(response.headers.get('content-type'), `${row.call} as ${column}`).toContain('application/problem+json');
      }
    }
    expect(got).toEqual(row.expected);
  });

  it('the sessions used above are still good (no row signed anyone out)', async () => {
    for (const column of COLUMNS.filter((c) => c !== 'none')) {
      const response = await call(server, '/api/support/supportprofile', { cookie: cookies.get(column) });
      expect(response.status, column).toBe(200);
    }
  });
});

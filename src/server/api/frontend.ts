import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { SignInSchema } from '#lib/schemas/sign-in.ts';
import {
  getAvailableCounts,
  getFooterInfo,
  getLandingPage,
  getWebsiteConfig,
  listLandingPageLinks,
  listLocations,
  type LandingPageType,
} from '../domain/site/site-info.ts';
import { signInAdvertiser } from '../domain/accounts/sign-in-advertiser.ts';
import { startImpersonation } from '../domain/accounts/impersonation.ts';
import { ImpersonateSchema } from '#lib/schemas/impersonation.ts';
import { requestSiteRebuild } from '../domain/site/request-site-rebuild.ts';
import { listPathRedirects } from '../domain/site/redirects.ts';
import { listLegacyRedirects } from '../domain/search/advert-route.ts';
import {
  advertiserOfRequest,
  supportOfRequest,
  cachePublic,
  contextFor,
  idList,
  noStore,
  readInput,
  requireSiteBuild,
  setSessionCookie,
  type ApiDeps,
} from './http.ts';
import { SearchProfilesSchema } from '#lib/schemas/search.ts';
import { queryFlag } from '#lib/schemas/query-values.ts';
import { ReportAdvertSchema } from '#lib/schemas/report-advert.ts';
import { listFrontPageAdverts } from '../domain/search/front-page.ts';
import { secondsOfThisOrder, shuffleMinute } from '../domain/search/ranking.ts';
import type { FrontPageAdverts } from '#lib/schemas/public-advert.ts';
import { getFullProfile, listFullProfiles, listFullProfilesByLocale } from '../domain/search/full-profile.ts';
import { searchProfiles } from '../domain/search/search-profiles.ts';
import { findKeywordTarget, searchWithFreeText } from '../domain/search/free-text.ts';
import { reportAdvert } from '../domain/reports/report-advert.ts';
import { AddProfileReviewSchema, ReviewCodeSchema } from '#lib/schemas/reviews.ts';
import { addProfileReview, sendReviewCode } from '../domain/reviews/visitor-reviews.ts';
import {
  getIndexPage,
  getProfileReferences,
  listIndexPages,
  listActiveAreas,
  listNationalityOptions,
  listServiceOptions,
  searchLocations,
} from '../domain/site/references.ts';
import { accountFrontendRoutes } from './account.ts';
import { restoreProfileRoutes } from './backend-advert.ts';
import { frontendPictureRoutes } from './frontend-pictures.ts';

const IdInput = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'number'), v.transform(Number))], 'required'),
  v.integer('number'),
);
const LocaleInput = v.object({ Locale: v.optional(v.picklist(['da', 'en'], 'locale'), 'da') });
const kindToType: Record<string, LandingPageType> = { artikler: 'article', service: 'service', free: 'free', index: 'index' };
const LandingKind = v.pipe(
  v.picklist(['artikler', 'service', 'free', 'index'], 'kind'),
  v.transform((kind) => kindToType[kind]!),
);

/** The site's languages (spec §3 "Languages list"). */
const siteLanguages = [
  { name: 'da', title: 'Dansk', icon: '🇩🇰' },
  { name: 'en', title: 'English', icon: '🇬🇧' },
];

/** /api/frontend/...: public calls (spec §7). Parameter names as the spec writes them, any case. */
export function frontendRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/websiteconfig', async (_request, reply) => {
      cachePublic(reply);
      return getWebsiteConfig(deps.db);
    });

    app.get('/frontpageavailablecounts', async (_request, reply) => {
      cachePublic(reply, 30);
      return getAvailableCounts(deps.db, deps.now());
    });

    app.get('/frontpagefooterinfo', async (request, reply) => {
      const { Locale } = readInput(request, LocaleInput);
      cachePublic(reply, 300);
      return getFooterInfo(deps.db, Locale, deps.now());
    });

    app.get('/searchpagelocations', async (_request, reply) => {
      cachePublic(reply, 300);
      return listLocations(deps.db);
    });

    app.get('/searchpageregions', async (_request, reply) => {
      cachePublic(reply, 300);
      const locations = await listLocations(deps.db);
      return locations.map(({ id, name, nameEn, slug }) => ({ id, name, nameEn, slug }));
    });

    app.get('/searchpagecities', async (request, reply) => {
      const { Region } = readInput(request, v.object({ Region: v.optional(v.string()) }));
      cachePublic(reply, 300);
      const locations = await listLocations(deps.db);
      return locations
        .filter((region) => !Region || region.slug === Region || String(region.id) === Region)
        .flatMap((region) => region.cities.map((city) => ({ ...city, regionId: region.id, regionSlug: region.slug })));
    });

    app.get('/languages', async (_request, reply) => {
      cachePublic(reply, 3600);
      return siteLanguages;
    });

    app.get('/landingpagepages', async (request, reply) => {
      const input = readInput(request, v.object({ Kind: LandingKind, Locale: LocaleInput.entries.Locale }));
      cachePublic(reply, 300);
      return listLandingPageLinks(deps.db, input.Kind, input.Locale);
    });

    app.get('/landingpagepage', async (request, reply) => {
      const input = readInput(
        request,
        v.object({ Kind: LandingKind, Url: v.pipe(v.string(), v.nonEmpty('required')), Locale: LocaleInput.entries.Locale }),
      );
      cachePublic(reply, 300);
      return getLandingPage(deps.db, input.Kind, input.Url, input.Locale);
    });

    /** The order is fixed within a minute (by definition), so one answer per minute and language is kept. */
    const frontPageMemo = new Map<string, Promise<FrontPageAdverts>>();
    app.get('/frontpageprofiles', async (request, reply) => {
      const { Locale } = readInput(request, LocaleInput);
      const now = deps.now();
      const key = `${shuffleMinute(now)}:${Locale}`;
      let answer = frontPageMemo.get(key);
      if (!answer) {
        for (const old of frontPageMemo.keys()) if (!old.startsWith(`${shuffleMinute(now)}:`)) frontPageMemo.delete(old);
        answer = listFrontPageAdverts(deps.db, now, Locale);
        frontPageMemo.set(key, answer);
        answer.catch(() => frontPageMemo.delete(key));
      }
      cachePublic(reply, secondsOfThisOrder(now));
      return answer;
    });

    app.get('/frontpageactiveareas', async (request, reply) => {
      const { Locale } = readInput(request, LocaleInput);
      cachePublic(reply, 300);
      return listActiveAreas(deps.db, deps.now(), Locale);
    });

    app.get('/fullprofile', async (request, reply) => {
      const input = readInput(request, v.object({ Id: IdInput, Locale: LocaleInput.entries.Locale }));
      cachePublic(reply, 60);
      return getFullProfile(deps.db, input.Id, input.Locale, deps.now());
    });

    /**
     * Full profiles in bulk, in id order, for the site build: `AfterId` pages through them; `Ids` (a comma
     * list of at most 1,000) keeps only those adverts (the incremental build asks for the changed ones).
     */
    app.get('/fullprofiles', async (request, reply) => {
      // Every public advert with its phone, in bulk: for the site build only (issue 15), never cached.
      requireSiteBuild(deps, request);
      const input = readInput(
        request,
        v.object({
          AfterId: v.optional(IdInput, 0),
          Take: v.optional(v.pipe(IdInput, v.minValue(1, 'range'), v.maxValue(1000, 'range')), 500),
          Ids: v.optional(v.pipe(idList, v.maxLength(1000, 'range'), v.check((ids) => ids.every((id) => id < 1e9), 'number'))),
          Locale: LocaleInput.entries.Locale,
          // Several languages at once (the site build: both pages of every advert from one read).
          Locales: v.optional(
            v.pipe(
              v.string(),
              v.transform((value) => [...new Set(value.split(',').map((part) => part.trim()))]),
              v.array(v.picklist(['da', 'en'], 'locale')),
            ),
          ),
        }),
      );
      noStore(reply);
      const options = { afterId: input.AfterId, limit: input.Take, now: deps.now(), ids: input.Ids };
      if (input.Locales) return listFullProfilesByLocale(deps.db, { ...options, locales: input.Locales });
      return listFullProfiles(deps.db, { ...options, locale: input.Locale });
    });

    app.get('/servicelist', async (request, reply) => {
      const { Locale } = readInput(request, LocaleInput);
      cachePublic(reply, 3600);
      return listServiceOptions(deps.db, Locale);
    });

    app.get('/supportservicelist', async (request, reply) => {
      const input = readInput(request, v.object({ Sort: v.optional(v.picklist(['name', 'type'], 'sort'), 'type'), Locale: LocaleInput.entries.Locale }));
      cachePublic(reply, 3600);
      return listServiceOptions(deps.db, input.Locale, input.Sort);
    });

    app.get('/searchpagenationalitylist', async (request, reply) => {
      const { Locale } = readInput(request, LocaleInput);
      cachePublic(reply, 3600);
      return listNationalityOptions(deps.db, Locale);
    });

    app.get('/countrylist', async (request, reply) => {
      const { Locale } = readInput(request, LocaleInput);
      cachePublic(reply, 3600);
      const names = new Intl.DisplayNames([Locale], { type: 'region' });
      const countries = (await listNationalityOptions(deps.db, Locale)).map((n) => ({ code: n.code, name: names.of(n.code) ?? n.code }));
      return countries.sort((a, b) => a.name.localeCompare(b.name, Locale));
    });

    app.get('/profilesreferences', async (request, reply) => {
      const { Locale } = readInput(request, LocaleInput);
      cachePublic(reply, 3600);
      return getProfileReferences(deps.db, Locale);
    });

    /** A visitor's search, counted as a search term (domain/search/search-terms.ts): the words, the results, and who only in memory. */
    const countSearchTerm = (request: FastifyRequest, text: string, results: number) =>
      deps.searchTerms.record({ text, results, ip: request.ip, userAgent: request.headers['user-agent'] }, deps.now());

    /**
     * The location box's suggestions (the box asks at each keystroke: cacheable, not counted). With
     * `Chosen=true` (sent once the visitor chose a place or pressed Enter) the words are counted as a search
     * term, with the number of places found (never cached, so each choice reaches the count).
     */
    app.get('/searchpagesearchlocation', async (request, reply) => {
      const input = readInput(
        request,
        v.object({ Text: v.pipe(v.string(), v.maxLength(60, 'tooLong')), Locale: LocaleInput.entries.Locale, Chosen: queryFlag('invalid') }),
      );
      const found = await searchLocations(deps.db, input.Text, input.Locale);
      if (input.Chosen) {
        noStore(reply);
        countSearchTerm(request, input.Text, found.length);
      } else {
        cachePublic(reply, 300);
      }
      return found;
    });

    app.get('/landingpageindexpage', async (request, reply) => {
      const input = readInput(request, v.object({ Url: v.pipe(v.string(), v.nonEmpty('required'), v.maxLength(300, 'tooLong')), Locale: LocaleInput.entries.Locale }));
      cachePublic(reply, 300);
      return getIndexPage(deps.db, input.Url, input.Locale);
    });

    app.get('/landingpageindexpages', async (request, reply) => {
      const { Locale } = readInput(request, LocaleInput);
      cachePublic(reply, 300);
      return listIndexPages(deps.db, Locale);
    });

    /** Moved public addresses (from → to, both site paths): a deployment elsewhere (Netlify's _redirects) answers them 301 too. */
    app.get('/pathredirects', async (_request, reply) => {
      cachePublic(reply, 60);
      return listPathRedirects(deps.db);
    });

    /**
     * The old site's advert addresses with a final answer (issue 18): to the public advert (301) or gone
     * (410). A deployment elsewhere (Netlify's _redirects) writes them; our server answers them itself.
     */
    app.get('/legacyredirects', async (_request, reply) => {
      cachePublic(reply, 60);
      return listLegacyRedirects(deps.db, deps.now());
    });

    /** Whether the visitor has an advertiser session (for the header's user icon; never a 401). */
    app.get('/session', async (request, reply) => {
      noStore(reply);
      const actor = await advertiserOfRequest(deps, request);
      return { signedIn: actor.type === 'advertiser' };
    });


    app.route({
      method: ['GET', 'POST'],
      url: '/searchpageprofiles',
      handler: async (request, reply) => {
        const input = readInput(request, SearchProfilesSchema);
        const now = deps.now();
        // Search-boosted adverts turn every minute: an answer is kept no longer than its minute.
        cachePublic(reply, Math.min(30, secondsOfThisOrder(now)));
        const result = await searchProfiles(deps.db, input, now);
        // The filters' free text is a visitor's search term (counted in memory; nothing about the visitor kept).
        if (input.Text) countSearchTerm(request, input.Text, result.total);
        return result;
      },
    });

    /** What the free-text page needs before searching: a keyword SEO staff matched to a page. */
    app.get('/searchpagepagefreetext', async (request, reply) => {
      const input = readInput(request, v.object({ Text: v.pipe(v.string(), v.maxLength(100, 'tooLong')) }));
      cachePublic(reply, 300);
      return findKeywordTarget(deps.db, input.Text);
    });

    app.route({
      method: ['GET', 'POST'],
      url: '/searchpageprofileswithfreetext',
      handler: async (request, reply) => {
        const input = readInput(request, SearchProfilesSchema);
        noStore(reply);
        const result = await searchWithFreeText(deps.db, input, deps.now());
        countSearchTerm(request, input.Text, result.total);
        return result;
      },
    });

    app.post('/reportadvert', { config: { rateLimit: { max: 20, timeWindow: '10 minutes' } } }, async (request, reply) => {
      noStore(reply);
      const input = readInput(request, ReportAdvertSchema);
      const created = await reportAdvert(contextFor(deps, request, { type: 'visitor' }), input);
      return reply.code(201).send(created);
    });

    /**
     * Visitors' reviews (issue 6; the names are ours, the spec names none). reviewcode {ProfileId, Phone,
     * Locale?}: a 6-digit code by SMS to the visitor's number (refused before any SMS when the review would
     * be: advert not public 404, number refused 403, already reviewed 409). addprofilereview {ProfileId,
     * Name, Rating, Text, Phone, Code}: the review, waiting for support (201).
     */
    app.post('/reviewcode', { config: { rateLimit: { max: 10 * deps.rateLimitScale, timeWindow: '10 minutes' } } }, async (request, reply) => {
      noStore(reply);
      const input = readInput(request, ReviewCodeSchema);
      return sendReviewCode(contextFor(deps, request, { type: 'visitor' }), input, { messaging: deps.messaging });
    });

    app.post('/addprofilereview', { config: { rateLimit: { max: 20 * deps.rateLimitScale, timeWindow: '10 minutes' } } }, async (request, reply) => {
      noStore(reply);
      const input = readInput(request, AddProfileReviewSchema);
      const created = await addProfileReview(contextFor(deps, request, { type: 'visitor' }), input);
      return reply.code(201).send(created);
    });

    app.post(
      '/login',
      // Per address; scaled like the other account calls' limits (RATE_LIMIT_SCALE: the browser tests sign
      // in many accounts from one address and found this one fixed at 10).
      { config: { rateLimit: { max: 10 * deps.rateLimitScale, timeWindow: '1 minute' } } },
      async (request, reply) => {
        noStore(reply);
        const input = readInput(request, SignInSchema);
        const ctx = contextFor(deps, request, { type: 'visitor' });
        const { session, profile } = await signInAdvertiser(ctx, input, { sessionDays: deps.sessionDays });
        setSessionCookie(reply, deps, 'advertiser', session);
        return profile;
      },
    );

    /**
     * impersonate (Url): support, signed in to support with the Support role, uses the one-time link it was
     * given (support's `impersonation`) and gets an advertiser session as that account (spec §2, §7).
     */
    app.post('/impersonate', { config: { rateLimit: { max: 20 * deps.rateLimitScale, timeWindow: '1 minute' } } }, async (request, reply) => {
      noStore(reply);
      const input = readInput(request, ImpersonateSchema);
      const actor = await supportOfRequest(deps, request);
      const { session, advertId } = await startImpersonation(contextFor(deps, request, actor), { token: input.Url });
      setSessionCookie(reply, deps, 'advertiser', session);
      return { advertId };
    });

    /**
     * Schedules a site rebuild now; only for a signed-in support user (spec §7 cleancache). POST only (the
     * spec's GET would let a link or an <img> elsewhere trigger it with support's cookie: issue 15).
     */
    app.post('/cleancache', async (request, reply) => {
      noStore(reply);
      const actor = await supportOfRequest(deps, request);
      await requestSiteRebuild(contextFor(deps, request, actor));
      return reply.code(204).send();
    });
    await app.register(accountFrontendRoutes(deps));
    await app.register(restoreProfileRoutes(deps));
    await app.register(frontendPictureRoutes(deps));
  };
}

import type { FastifyInstance } from 'fastify';
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
import { requestSiteRebuild } from '../domain/site/request-site-rebuild.ts';
import {
  ADVERTISER_COOKIE,
  SUPPORT_COOKIE,
  cachePublic,
  contextFor,
  noStore,
  readInput,
  setSessionCookie,
  type ApiDeps,
} from './http.ts';
import { resolveSupportSession } from '../domain/accounts/sessions.ts';

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

    app.post(
      '/login',
      { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } },
      async (request, reply) => {
        noStore(reply);
        const input = readInput(request, SignInSchema);
        const ctx = contextFor(deps, request, { type: 'visitor' });
        const { session, profile } = await signInAdvertiser(ctx, input, { sessionDays: deps.sessionDays });
        setSessionCookie(reply, deps, ADVERTISER_COOKIE, session);
        return profile;
      },
    );

    /** Schedules a site rebuild now; only for a signed-in support user (spec §7 cleancache). */
    app.route({ method: ['GET', 'POST'], url: '/cleancache', handler: async (request, reply) => {
      noStore(reply);
      const actor = await resolveSupportSession(deps.db, request.cookies[SUPPORT_COOKIE], deps.now());
      await requestSiteRebuild(contextFor(deps, request, actor));
      return reply.code(204).send();
    } });
  };
}

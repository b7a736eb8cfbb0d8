import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AddCitySchema, RenameCitySchema, SupportCitiesQuerySchema } from '#lib/schemas/places.ts';
import { addCity, listSupportCities, listSupportRegions, renameCity } from '../domain/seo/places.ts';
import type { Actor } from '../domain/context.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';

/**
 * /api/support/...: regions and cities for SEO staff (issue 17; spec §6 support areas "regions; cities"):
 * the lists, a city added to a region, a city renamed (its old addresses answer 301 to the new).
 * Registered by support.ts, whose hook has put the signed-in support user on the request; the domain
 * checks the permission (seo:pages:any).
 */
export function supportPlacesRoutes(deps: ApiDeps, supportOf: (request: FastifyRequest) => Actor) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, supportOf(request));

    /** Every region with its cities, how many public adverts each has, and their index pages. */
    app.get('/regions', async (request) => listSupportRegions(ctxOf(request)));

    /** The cities of one region (RegionId). */
    app.get('/cities', async (request) => listSupportCities(ctxOf(request), readInput(request, SupportCitiesQuerySchema).RegionId));

    /** Adds a city to a region: the city (201). */
    app.post('/cities', async (request, reply) => reply.code(201).send(await addCity(ctxOf(request), readInput(request, AddCitySchema))));

    /** Renames a city: the city as renamed, with the addresses that now redirect (old → new). */
    app.post('/renamecity', async (request) => renameCity(ctxOf(request), readInput(request, RenameCitySchema)));
  };
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NewsChangeSchema, NewsIdSchema, SupportNewsQuerySchema } from '#lib/schemas/news.ts';
import { deleteNews, getSupportNews, listSupportNews, saveNews } from '../domain/news/news.ts';
import type { Actor } from '../domain/context.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';

/**
 * /api/support/...: news for advertisers (Administration; spec §6 news: Skip, Take, Title, LocaleId; add,
 * delete). Registered by support.ts, whose hook has put the signed-in support user on the request; the
 * domain checks the permission.
 */
export function supportNewsRoutes(deps: ApiDeps, supportOf: (request: FastifyRequest) => Actor) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, supportOf(request));

    app.get('/news', async (request) => listSupportNews(ctxOf(request), readInput(request, SupportNewsQuerySchema)));

    app.get('/newsitem', async (request) => getSupportNews(ctxOf(request), readInput(request, NewsIdSchema).Id));

    /** Adds (no Id) or changes a news item: the item as saved. */
    app.post('/news', async (request) => saveNews(ctxOf(request), readInput(request, NewsChangeSchema)));

    /** Deletes a news item (POST with a JSON body, as removeuser: a state change never rides in a link). */
    app.post('/deletenews', async (request, reply) => {
      await deleteNews(ctxOf(request), readInput(request, NewsIdSchema).Id);
      return reply.code(204).send();
    });
  };
}

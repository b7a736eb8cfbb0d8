import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KEYWORD_LISTS, KeywordIdSchema, KeywordInsertSchema, KeywordListQuerySchema, KeywordQuerySchema } from '#lib/schemas/keywords.ts';
import { getKeyword, insertKeyword, listKeywords, removeKeywordDecision } from '../domain/search/keywords.ts';
import type { Actor } from '../domain/context.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';

/**
 * /api/support/...: visitors' search terms for SEO staff (issue 17; spec §6 search keywords: GET lists,
 * POST insert, DELETE with Id, remove pair/ignore). Registered by support.ts, whose hook has put the
 * signed-in support user on the request; the domain checks `seo:keywords:any`. State changes are POSTs
 * with a JSON body, as every other support call (a state change never rides in a link).
 */
export function supportKeywordRoutes(deps: ApiDeps, supportOf: (request: FastifyRequest) => Actor) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, supportOf(request));

    // matchedkeywords, unmatchedkeywords, pairedkeywords, ignoredkeywords
    for (const list of KEYWORD_LISTS) {
      app.get(`/${list}keywords`, async (request) => listKeywords(ctxOf(request), list, readInput(request, KeywordListQuerySchema)));
    }

    app.get('/keyword', async (request) => {
      const input = readInput(request, KeywordQuerySchema);
      return getKeyword(ctxOf(request), input.Keyword, input.Days);
    });

    /** The spec's insert: ignore a term, or pair it with another term or a page. */
    app.post('/keyword', async (request) => insertKeyword(ctxOf(request), readInput(request, KeywordInsertSchema)));

    /** The spec's delete with Id: the decision (a pair or an ignore) is taken back. */
    app.post('/deletekeyword', async (request, reply) => {
      await removeKeywordDecision(ctxOf(request), readInput(request, KeywordIdSchema).Id);
      return reply.code(204).send();
    });
    app.post('/removepair', async (request, reply) => {
      await removeKeywordDecision(ctxOf(request), readInput(request, KeywordIdSchema).Id, 'paired');
      return reply.code(204).send();
    });
    app.post('/removeignore', async (request, reply) => {
      await removeKeywordDecision(ctxOf(request), readInput(request, KeywordIdSchema).Id, 'ignored');
      return reply.code(204).send();
    });
  };
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppealStatementSchema } from '#lib/schemas/moderation.ts';
import { appealStatement, listOwnStatements } from '../domain/moderation/appeals.ts';
import { advertiserOf } from './backend.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';

/**
 * /api/backend/...: the advertiser's statements of reasons (why support removed, hid, locked or declined
 * something of theirs) and their appeal, once per decision: statementsofreasons, appealstatement.
 */
export function backendAppealRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, advertiserOf(request));

    app.get('/statementsofreasons', async (request) => listOwnStatements(ctxOf(request)));

    app.post('/appealstatement', async (request, reply) => {
      const input = readInput(request, AppealStatementSchema);
      await appealStatement(ctxOf(request), { id: input.Id, text: input.Text });
      return reply.code(204).send();
    });
  };
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StatisticsQuerySchema, TransparencyQuerySchema } from '#lib/schemas/statistics.ts';
import {
  profilesCreated,
  profilesCreatedCsv,
  statisticsCsv,
  statisticsPerDay,
  statisticsPerMonth,
  transparencyCsv,
  transparencyReport,
} from '../domain/statistics/statistics.ts';
import type { CsvFile } from '../domain/csv.ts';
import { sendCsv } from './order-files.ts';
import type { Actor } from '../domain/context.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';

/** The figures are the business's own: never kept by a browser's or a proxy's cache. */
const PRIVATE = 'private, no-store';

/** A CSV download, never kept by a cache. */
const sendPrivateCsv = (reply: FastifyReply, file: CsvFile): FastifyReply => sendCsv(reply.header('Cache-Control', PRIVATE), file);

/**
 * /api/support/...: Administration's statistics (issue 18; spec §6 statistics per day, per month,
 * profile-created) and the DSA transparency report, as JSON or, with `Format=csv`, as a CSV download
 * named after the call and its range. Registered by support.ts, whose hook has put the signed-in support
 * user on the request; the domain checks `stats:read:any`.
 */
export function supportStatisticsRoutes(deps: ApiDeps, supportOf: (request: FastifyRequest) => Actor) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: FastifyRequest) => contextFor(deps, request, supportOf(request));

    app.get('/statisticsperday', async (request, reply) => {
      const { Format } = readInput(request, StatisticsQuerySchema);
      const answer = await statisticsPerDay(ctxOf(request));
      return Format === 'csv' ? sendPrivateCsv(reply, statisticsCsv(answer)) : reply.header('Cache-Control', PRIVATE).send(answer);
    });

    app.get('/statisticspermonth', async (request, reply) => {
      const { Format } = readInput(request, StatisticsQuerySchema);
      const answer = await statisticsPerMonth(ctxOf(request));
      return Format === 'csv' ? sendPrivateCsv(reply, statisticsCsv(answer)) : reply.header('Cache-Control', PRIVATE).send(answer);
    });

    app.get('/statisticsprofilecreated', async (request, reply) => {
      const { Format } = readInput(request, StatisticsQuerySchema);
      const answer = await profilesCreated(ctxOf(request));
      return Format === 'csv' ? sendPrivateCsv(reply, profilesCreatedCsv(answer)) : reply.header('Cache-Control', PRIVATE).send(answer);
    });

    app.get('/transparencyreport', async (request, reply) => {
      const input = readInput(request, TransparencyQuerySchema);
      const report = await transparencyReport(ctxOf(request), input);
      return input.Format === 'csv' ? sendPrivateCsv(reply, transparencyCsv(report)) : reply.header('Cache-Control', PRIVATE).send(report);
    });
  };
}

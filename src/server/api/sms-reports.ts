/**
 * POST /api/sms/gatewayapi: GatewayAPI's Delivery Status Notifications (docs/decisions/039). Each report
 * carries its fields in an HS256 JWT in `X-Gwapi-Signature`, signed with the secret chosen for the webhook
 * (GATEWAYAPI_WEBHOOK_SECRET); only the verified token is read, never the body. A forged, missing or
 * unknown report is refused (401) and changes nothing; a report for a message that is not ours, or a
 * transient state after a final one, is answered 204 and ignored (the provider would send it again
 * otherwise). The log names the outbox row and the state, never the phone number.
 */
import type { FastifyInstance } from 'fastify';
import { SMS_REPORTS_PATH, readDeliveryReport } from '../adapters/messaging/gatewayapi-sms.ts';
import { recordDeliveryReport } from '../adapters/messaging/outbox-messaging.ts';
import { noStore, type ApiDeps } from './http.ts';

/** A report is a few hundred bytes. */
const REPORT_BODY_LIMIT = 8 * 1024;

export function smsReportRoutes(deps: Pick<ApiDeps, 'db' | 'rateLimitScale'>, options: { secret: string | undefined }) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post(
      SMS_REPORTS_PATH,
      // signedCallback: authenticated by its signed token, not by an Origin (./cross-site.ts).
      { bodyLimit: REPORT_BODY_LIMIT, config: { signedCallback: true, rateLimit: { max: 600 * deps.rateLimitScale, timeWindow: '1 minute' } } },
      async (request, reply) => {
        noStore(reply);
        const header = request.headers['x-gwapi-signature'];
        const report = options.secret ? await readDeliveryReport(typeof header === 'string' ? header : undefined, options.secret) : null;
        if (!report) {
          request.log.warn({ configured: options.secret !== undefined }, 'SMS delivery report refused: no valid X-Gwapi-Signature');
          return reply.code(401).type('text/plain; charset=utf-8').send('Unauthorized');
        }
        const recorded = await recordDeliveryReport(deps.db, report);
        request.log.info({ outboxId: report.reference, status: report.status, recorded }, 'SMS delivery report');
        return reply.code(204).send();
      },
    );
  };
}

/**
 * A stand-in of GatewayAPI for tests (docs/decisions/039), following its published REST documentation
 * (onlinecity/gatewayapi-docs, docs/rest.rst and docs/errors.rst; gatewayapi.com/docs): the live adapter's
 * code runs against it.
 * - `POST /rest/mtsms`: authenticated by the API token as `Authorization: Token …`, as the username of
 *   Basic authentication, or as `?token=`; otherwise 401 with code 0x0229. The JSON body is one message or
 *   a list; `message` and `recipients[].msisdn` are required, `sender` is up to 11 letters and digits or 15
 *   digits, a recipient may appear once (0x0310); a body that is not JSON is 422. Answers
 *   `{ ids, usage: { countries, currency, total_cost } }`; errors `{ code, incident_uuid, message, variables }`.
 * - Delivery Status Notifications to the message's `callback_url` (or the default webhook): JSON
 *   `{ id, msisdn, time, status, error, code, userref, callback_url, api: 4 }` with the same claims in an
 *   HS256 JWT in `X-Gwapi-Signature`, signed with the webhook's secret, as the documentation's example.
 * - What a real provider does to a client: refuse the next sends (`failNext`), answer slowly (`delayMs`),
 *   and send reports twice or out of order (`report`).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';

export type StandInMessage = {
  id: number;
  sender: string | null;
  message: string;
  userref: string | null;
  callbackUrl: string | null;
  msisdn: number;
  /** How the request authenticated ('token-header', 'basic', 'query'). */
  auth: string;
};

export type GatewayApiStandIn = {
  url: string;
  token: string;
  webhookSecret: string;
  /** Every message accepted, in order. */
  sent: StandInMessage[];
  /** Raw requests to /rest/mtsms, accepted or not (method, path, headers, body). */
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  /** The next `count` sends are refused with this status (default 500, as an exception on their side). */
  failNext: (count: number, status?: number) => void;
  /** Every answer waits this long first. */
  delayMs: number;
  /** Where the callback URLs' host is reached (a test server's address in place of the public SITE_URL), if not at itself. */
  reachCallbacksAt: string | null;
  /** Sends a delivery report for an accepted message (to its callback URL), signed unless `sign` is false or another secret is given. */
  report: (id: number, status: string, options?: { secret?: string; sign?: boolean; error?: string | null }) => Promise<number>;
  close: () => Promise<void>;
};

const SENDER = /^(?:[A-Za-z0-9 ]{1,11}|\+?[0-9]{1,15})$/;

export async function startGatewayApiStandIn(options: { token?: string; webhookSecret?: string; defaultWebhook?: string } = {}): Promise<GatewayApiStandIn> {
  const token = options.token ?? `standin-${randomUUID()}`;
  const webhookSecret = options.webhookSecret ?? `webhook-${randomUUID()}`;
  const sent: StandInMessage[] = [];
  const requests: GatewayApiStandIn['requests'] = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  let nextId = 421_332_671;

  const error = (status: number, code: string, message: string, variables?: string[]) => ({
    status,
    body: { code, incident_uuid: randomUUID(), message, ...(variables ? { variables } : {}) },
  });

  const authOf = (request: IncomingMessage, url: URL): string | null => {
    const header = request.headers.authorization ?? '';
    if (header.startsWith('Token ') && header.slice(6) === token) return 'token-header';
    if (header.startsWith('Basic ')) {
      const [user] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      if (user === token) return 'basic';
    }
    if (url.searchParams.get('token') === token) return 'query';
    return null;
  };

  const handle = (request: IncomingMessage, body: string): { status: number; body: unknown } => {
    const url = new URL(request.url ?? '/', 'http://standin');
    if (url.pathname !== '/rest/mtsms') return { status: 404, body: { message: 'Not found' } };
    if (request.method !== 'POST') return error(405, '0x0203', 'Method not allowed');
    const auth = authOf(request, url);
    if (!auth) return error(401, '0x0229', 'Invalid token');
    if (failures.count > 0) {
      failures.count -= 1;
      return error(failures.status, '0x0201', 'Unknown error');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return error(422, '0x0308', 'Invalid json request body');
    }
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    const accepted: StandInMessage[] = [];
    for (const raw of messages) {
      if (typeof raw !== 'object' || raw === null) return error(422, '0x0308', 'Invalid json request body');
      const m = raw as Record<string, unknown>;
      if (typeof m['message'] !== 'string' || m['message'].length === 0) return error(400, '0x0222', 'Missing required parameter %1', ['message']);
      if (m['sender'] !== undefined && (typeof m['sender'] !== 'string' || !SENDER.test(m['sender']))) return error(400, '0x0308', 'Invalid sender');
      const recipients = m['recipients'];
      if (!Array.isArray(recipients) || recipients.length === 0) return error(400, '0x0222', 'Missing required parameter %1', ['recipients']);
      const seen = new Set<number>();
      for (const recipient of recipients) {
        const msisdn = (recipient as { msisdn?: unknown } | null)?.msisdn;
        const value = typeof msisdn === 'number' ? msisdn : typeof msisdn === 'string' && /^[0-9]{6,15}$/.test(msisdn) ? Number(msisdn) : NaN;
        if (!Number.isSafeInteger(value)) return error(400, '0x0308', 'Invalid recipient');
        if (seen.has(value)) return error(422, '0x0310', 'A message contains the same recipient more than once. MSISDNs %1 is duplicated', [String(value)]);
        seen.add(value);
      }
      const id = nextId++;
      for (const msisdn of seen) {
        accepted.push({
          id,
          sender: typeof m['sender'] === 'string' ? m['sender'] : null,
          message: m['message'],
          userref: typeof m['userref'] === 'string' ? m['userref'] : null,
          callbackUrl: typeof m['callback_url'] === 'string' ? m['callback_url'] : (options.defaultWebhook ?? null),
          msisdn,
          auth,
        });
      }
    }
    sent.push(...accepted);
    const ids = [...new Set(accepted.map((m) => m.id))];
    const countries: Record<string, number> = {};
    for (const m of accepted) {
      const country = String(m.msisdn).startsWith('45') ? 'DK' : 'XX';
      countries[country] = (countries[country] ?? 0) + 1;
    }
    return { status: 200, body: { ids, usage: { countries, currency: 'DKK', total_cost: Number((accepted.length * 0.15).toFixed(2)) } } };
  };

  const standIn: GatewayApiStandIn = {
    url: '',
    token,
    webhookSecret,
    sent,
    requests,
    delayMs: 0,
    reachCallbacksAt: null,
    failNext: (count, status = 500) => {
      failures = { count, status };
    },
    report: async (id, status, reportOptions = {}) => {
      const message = sent.find((m) => m.id === id);
      if (!message?.callbackUrl) throw new Error(`no callback URL for message ${id}`);
      const claims = {
        id,
        msisdn: message.msisdn,
        time: Math.floor(Date.now() / 1000),
        status,
        error: reportOptions.error ?? null,
        code: null,
        userref: message.userref,
        callback_url: message.callbackUrl,
        api: 4,
      };
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: '*/*' };
      if (reportOptions.sign !== false) {
        headers['x-gwapi-signature'] = await new SignJWT(claims)
          .setProtectedHeader({ typ: 'JWT', alg: 'HS256' })
          .sign(new TextEncoder().encode(reportOptions.secret ?? webhookSecret));
      }
      const callback = new URL(message.callbackUrl);
      const target = standIn.reachCallbacksAt ? new URL(`${callback.pathname}${callback.search}`, standIn.reachCallbacksAt) : callback;
      const answer = await fetch(target, { method: 'POST', headers, body: JSON.stringify(claims) });
      await answer.arrayBuffer();
      return answer.status;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const answer = handle(request, body);
      setTimeout(() => {
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      }, standIn.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

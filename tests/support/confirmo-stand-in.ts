/**
 * A local stand-in for Confirmo's invoice API (docs.confirmo.net), for the integration tests of the real
 * crypto provider (src/server/adapters/payments/confirmo.ts): a node:http server on 127.0.0.1.
 *
 * - `POST /api/v3/invoices` (Bearer the API key, else 401): a new invoice, `active`, with the request's
 *   reference and `invoice.amount`/`currencyFrom` as `merchantAmount`; answers it with its `url`.
 * - `GET /api/v3/invoices/{id}` (same key): the invoice, 404 when unknown.
 * - The test plays Confirmo: `set(id, patch)` changes an invoice; `notify(id, target)` posts it as the
 *   notification, `BP-Signature` = sha256(body + callback password) (or a given signature, or a tampered body).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { confirmoSignature, type ConfirmoStatus } from '#server/adapters/payments/confirmo.ts';

export type StandInInvoice = { id: string; status: ConfirmoStatus; reference: string | null; merchantAmount: { amount: string; currency: string }; url: string };

export type ConfirmoStandIn = {
  url: string;
  apiKey: string;
  callbackPassword: string;
  invoices: Map<string, StandInInvoice>;
  requests: { method: string; path: string; body: unknown }[];
  set: (id: string, patch: Partial<StandInInvoice>) => StandInInvoice;
  notify: (id: string, target: string, options?: { signature?: string; tamper?: Partial<StandInInvoice> }) => Promise<{ status: number; text: string }>;
  close: () => Promise<void>;
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

export async function startConfirmoStandIn(): Promise<ConfirmoStandIn> {
  const apiKey = `confirmo-key-${randomBytes(8).toString('hex')}`;
  const callbackPassword = `confirmo-cb-${randomBytes(8).toString('hex')}`;
  const invoices = new Map<string, StandInInvoice>();
  const requests: ConfirmoStandIn['requests'] = [];
  let url = '';

  const server: Server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      requests.push({ method: req.method ?? 'GET', path, body });
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { message: 'Unauthorized' });
      if (req.method === 'POST' && path === '/api/v3/invoices') {
        const invoice = body?.['invoice'] as { amount: string; currencyFrom: string };
        const id = `inv${randomBytes(6).toString('hex')}`;
        const created: StandInInvoice = {
          id,
          status: 'active',
          reference: (body?.['reference'] as string | undefined) ?? null,
          merchantAmount: { amount: invoice.amount, currency: invoice.currencyFrom },
          url: `${url}/pay/${id}`,
        };
        invoices.set(id, created);
        return send(201, created);
      }
      const match = /^\/api\/v3\/invoices\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && match) {
        const invoice = invoices.get(decodeURIComponent(match[1]!));
        return invoice ? send(200, invoice) : send(404, { message: 'Not found' });
      }
      return send(404, { message: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    apiKey,
    callbackPassword,
    invoices,
    requests,
    set: (id, patch) => Object.assign(invoices.get(id)!, patch),
    notify: async (id, target, options = {}) => {
      const body = JSON.stringify({ ...invoices.get(id), ...options.tamper });
      const response = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'bp-signature': options.signature ?? confirmoSignature(body, callbackPassword) },
        body,
      });
      return { status: response.status, text: await response.text() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A local stand-in for Yoti's age verification API (developers.yoti.com, "Age verification"), for the
 * integration tests of the Yoti provider: a node:http server on 127.0.0.1 that follows the published API
 * as src/server/adapters/age-verification/yoti-age-provider.ts reads it.
 *
 * - `POST /api/v1/sessions`: 401 without or with an unknown `Yoti-SDK-Id`, 403 with a wrong
 *   `Authorization: Bearer` key, 400 without `type`; else `{id, status: PENDING, expires_at}`.
 * - `GET /api/v1/sessions/{id}/result` (same headers): the session's `status`, `method`, `age`.
 * - The test plays the person: `finish(id, state)` sets the outcome; `notify(id, url)` posts Yoti's
 *   notification, signed RSA-PSS SHA-256 with this stand-in's own key (its public key: `publicKeyPem`)
 *   over the body without `signature` and `sequence_number`, re-serialised without whitespace.
 * - `failNext(n, status)` answers the next n API calls with that status; `hangNext(n)` never answers them
 *   (a timeout on our side).
 * - The user view, for a browser (the production journey, tests/production/): `GET /?sessionId&sdkId` (the
 *   address the adapter sends the person to) shows the session with three buttons; the person's choice
 *   (`POST /view/{id}`) finishes the session (COMPLETE, FAIL or CANCELLED), posts the signed notification
 *   to the session's `notification_url` when it asked for one, and sends the browser to `callback.url` with
 *   `sessionId` appended (Yoti's automatic callback), or to `cancel_url` when cancelled.
 */
import { constants, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { notificationSigningInput } from '#server/adapters/age-verification/yoti-age-provider.ts';

export type YotiState = 'PENDING' | 'IN_PROGRESS' | 'COMPLETE' | 'FAIL' | 'ERROR' | 'CANCELLED';

type ViewOutcome = 'Pass' | 'Fail' | 'Cancel';
const VIEW_OUTCOMES: readonly ViewOutcome[] = ['Pass', 'Fail', 'Cancel'];
const VIEW_STATES: Record<ViewOutcome, YotiState> = { Pass: 'COMPLETE', Fail: 'FAIL', Cancel: 'CANCELLED' };

type Session = { id: string; body: Record<string, unknown>; status: YotiState; threshold: number; sequence: number };

export type YotiStandIn = {
  url: string;
  apiUrl: string;
  sdkId: string;
  apiKey: string;
  publicKeyPem: string;
  /** The notifications the user view posted: the session, and our server's answer (or the error). */
  notified: { sessionId: string; status: number | string }[];
  /** Every request the stand-in received (method, path, headers, body). */
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: unknown }[];
  sessions: Map<string, Session>;
  finish: (sessionId: string, state: YotiState) => void;
  /** The notification Yoti would send for the session's current state, signed (or with `signature` replaced). */
  notification: (sessionId: string, options?: { signature?: string; tamper?: Record<string, unknown> }) => Record<string, unknown>;
  /** Posts the session's notification to `target` (the test server's yoticallback); answers the status. */
  notify: (sessionId: string, target: string, options?: { signature?: string; tamper?: Record<string, unknown> }) => Promise<number>;
  failNext: (times: number, status: number) => void;
  hangNext: (times: number) => void;
  close: () => Promise<void>;
};

export async function startYotiStandIn(): Promise<YotiStandIn> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const sdkId = randomUUID();
  const apiKey = `test-api-key-${randomUUID()}`;
  const sessions = new Map<string, Session>();
  const requests: YotiStandIn['requests'] = [];
  const notified: YotiStandIn['notified'] = [];
  let failures: { times: number; status: number } = { times: 0, status: 500 };
  let hangs = 0;
  const hanging = new Set<ServerResponse>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const address = new URL(req.url ?? '/', 'http://stand-in');
      const path = address.pathname;
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      // The user view (no API credentials: the person's browser).
      if (req.method === 'GET' && path === '/') return userView(res, address.searchParams);
      const choice = /^\/view\/([^/]+)$/.exec(path);
      if (req.method === 'POST' && choice) return void finishInView(res, decodeURIComponent(choice[1]!), new URLSearchParams(text).get('outcome') ?? '');
      if (hangs > 0) {
        hangs -= 1;
        hanging.add(res);
        return;
      }
      if (failures.times > 0) {
        failures = { ...failures, times: failures.times - 1 };
        return send(res, failures.status, { error: 'stand-in failure' });
      }
      // Auth as Yoti documents it: 401 for a missing or unknown SDK id, 403 for a wrong API key.
      if (req.headers['yoti-sdk-id'] !== sdkId) return send(res, 401, { error: 'Missing or unknown Yoti-Sdk-Id' });
      if (req.headers['authorization'] !== `Bearer ${apiKey}`) return send(res, 403, { error: 'Incorrect API key' });
      if (req.method === 'POST' && path === '/api/v1/sessions') {
        if (!req.headers['content-type']?.startsWith('application/json')) return send(res, 400, { error: 'Content-Type' });
        const config = body as Record<string, unknown> | null;
        if (!config || typeof config['type'] !== 'string') return send(res, 400, { error: 'Missing field in post body' });
        const id = randomUUID();
        const estimation = config['age_estimation'] as { threshold?: number } | undefined;
        sessions.set(id, { id, body: config, status: 'PENDING', threshold: estimation?.threshold ?? 18, sequence: 0 });
        return send(res, 200, { id, status: 'PENDING', expires_at: new Date(Date.now() + 900_000).toISOString() });
      }
      const result = /^\/api\/v1\/sessions\/([^/]+)\/result$/.exec(path);
      if (req.method === 'GET' && result) {
        const session = sessions.get(decodeURIComponent(result[1]!));
        if (!session) return send(res, 404, { error: 'Session not found' });
        return send(res, 200, {
          id: session.id,
          sdk_id: sdkId,
          type: 'OVER',
          status: session.status,
          ...(session.status === 'PENDING' ? {} : { method: 'AGE_ESTIMATION', age: session.threshold }),
          reference_id: session.body['reference_id'] ?? '',
        });
      }
      send(res, 404, { error: 'Not found' });
    });
  });
  const page = (res: ServerResponse, status: number, title: string, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>${body}</main></body></html>`);
  };
  const userView = (res: ServerResponse, query: URLSearchParams) => {
    const session = sessions.get(query.get('sessionId') ?? '');
    if (!session || query.get('sdkId') !== sdkId) return page(res, 404, 'Unknown session', '<h1>Unknown session</h1>');
    const action = `/view/${encodeURIComponent(session.id)}`;
    const buttons = VIEW_OUTCOMES.map((outcome) => `<button type="submit" name="outcome" value="${outcome}">${outcome}</button>`).join('\n');
    return page(
      res,
      200,
      'Yoti age estimation (stand-in)',
      `<h1>Yoti age estimation (stand-in)</h1><p>Over ${session.threshold}? State: <strong data-state="${session.status}">${session.status}</strong></p>` +
        (session.status === 'PENDING' || session.status === 'IN_PROGRESS' ? `<form method="post" action="${action}">${buttons}</form>` : ''),
    );
  };
  const finishInView = async (res: ServerResponse, sessionId: string, outcome: string) => {
    const session = sessions.get(sessionId);
    const status = VIEW_STATES[outcome as ViewOutcome];
    if (!session || !status) return page(res, 404, 'Unknown session', '<h1>Unknown session</h1>');
    session.status = status;
    const target = session.body['notification_url'];
    if (typeof target === 'string' && status !== 'CANCELLED') {
      const status = await notify(session.id, target).catch((error: unknown) => String(error));
      notified.push({ sessionId: session.id, status });
    }
    const callback = (session.body['callback'] as { url?: string } | undefined)?.url ?? '';
    const cancel = typeof session.body['cancel_url'] === 'string' ? session.body['cancel_url'] : callback;
    const to = status === 'CANCELLED' ? cancel : `${callback}${callback.includes('?') ? '&' : '?'}sessionId=${encodeURIComponent(session.id)}`;
    res.writeHead(303, { location: to });
    res.end();
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  const notification = (sessionId: string, options: { signature?: string; tamper?: Record<string, unknown> } = {}) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no stand-in session ${sessionId}`);
    session.sequence += 1;
    const payload: Record<string, unknown> = {
      method: 'AGE_ESTIMATION',
      age: session.threshold,
      session_key: session.id,
      reference_id: session.body['reference_id'] ?? '',
      id: randomUUID(),
      timestamp: Math.floor(Date.now() / 1000),
      notification_url: session.body['notification_url'] ?? '',
      evidence_id: randomUUID(),
      state: session.status,
      check_type: 'PASSIVE',
    };
    const signature = sign('sha256', notificationSigningInput(payload), {
      key: privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
    }).toString('base64');
    return { ...payload, ...options.tamper, sequence_number: session.sequence, signature: options.signature ?? signature };
  };

  const notify: YotiStandIn['notify'] = async (sessionId, target, options) => {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notification(sessionId, options)),
    });
    await response.body?.cancel();
    return response.status;
  };

  return {
    url,
    apiUrl: `${url}/api/v1`,
    sdkId,
    apiKey,
    publicKeyPem,
    notified,
    requests,
    sessions,
    finish: (sessionId, state) => {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no stand-in session ${sessionId}`);
      session.status = state;
    },
    notification,
    notify,
    failNext: (times, status) => {
      failures = { times, status };
    },
    hangNext: (times) => {
      hangs = times;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { AgeProviderCallbackSchema } from '#lib/schemas/verification.ts';
import { isValidBodyHeader, isValidHmac, signBodyHeader, signHmac } from '../../signing.ts';
import type { AgeCheckStatus, AgeVerificationProvider } from '../types.ts';

/**
 * The built-in TEST age-verification provider (AGE_PROVIDER=test: the default in development and tests;
 * with NODE_ENV=production only with ALLOW_TEST_PROVIDERS, see src/server/config.ts). NO AGE IS CHECKED:
 * whoever holds the link presses Pass. It behaves like a hosted check: `startSession` answers a page of
 * ours, `/test-age-provider/{sessionId}` (src/server/api/test-age-provider.ts), where a person presses
 * Pass, Fail or Cancel; the page then posts a signed callback to /api/backend/yoticallback and sends the
 * browser back to the return address with `?sessionId=…`. A passed test check still waits for support,
 * who may accept it only outside production (docs/decisions/019-test-providers-and-yoti.md). A session's
 * id carries the session itself (the account, the return address, its time), signed with AGE_PROVIDER_SECRET:
 * with several instances behind a load balancer (the same secret on each), whichever instance the page's
 * requests reach opens it. The choice made is kept in this process's memory (a second choice on the same
 * instance changes nothing; the callback records the first one, docs/decisions/019). Sessions expire after
 * 24 hours, as a provider's do.
 */

export type TestAgeOutcome = 'pass' | 'fail' | 'cancel';

export type TestAgeSession = { sessionId: string; accountId: number; returnUrl: string; createdAt: number; result: AgeCheckStatus };

export type TestAgeProvider = AgeVerificationProvider & {
  findSession: (sessionId: string) => TestAgeSession | null;
  /** Records the person's choice once (a second choice changes nothing); null for an unknown session. */
  decide: (sessionId: string, outcome: TestAgeOutcome) => TestAgeSession | null;
};

/** `X-Age-Provider-Signature: sha256=<hex HMAC-SHA256 of the raw body>` (AGE_PROVIDER_SECRET), as the video encoder's postbacks. */
export const AGE_PROVIDER_SIGNATURE_HEADER = 'x-age-provider-signature';

export function signAgeProviderBody(body: string | Uint8Array, secret: string): string {
  return signBodyHeader(body, secret);
}

/** Sessions older than this are forgotten (as a provider's sessions expire). */
const SESSION_HOURS = 24;
const MAX_SESSIONS = 10_000;

const SealedSessionSchema = v.object({ a: v.pipe(v.number(), v.integer()), r: v.string(), t: v.number(), n: v.string() });

/** `test-<session as base64url JSON>.<HMAC-SHA256 of it, base64url>`: any instance with the secret opens it. */
function sealSession(session: Pick<TestAgeSession, 'accountId' | 'returnUrl' | 'createdAt'>, secret: string): string {
  const payload = Buffer.from(
    JSON.stringify({ a: session.accountId, r: session.returnUrl, t: session.createdAt, n: randomBytes(12).toString('base64url') } satisfies v.InferOutput<typeof SealedSessionSchema>),
  ).toString('base64url');
  return `test-${payload}.${signHmac(`test-age-session.${payload}`, secret)}`;
}

/** The session a sealed id carries, while it is younger than SESSION_HOURS; null for anything else. */
function openSession(sessionId: string, secret: string): TestAgeSession | null {
  const match = /^test-([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(sessionId);
  if (!match) return null;
  if (!isValidHmac(`test-age-session.${match[1]}`, match[2]!, secret)) return null;
  let sealed: unknown;
  try {
    sealed = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = v.safeParse(SealedSessionSchema, sealed);
  if (!parsed.success || parsed.output.t < Date.now() - SESSION_HOURS * 3_600_000) return null;
  return { sessionId, accountId: parsed.output.a, returnUrl: parsed.output.r, createdAt: parsed.output.t, result: { status: 'pending' } };
}

export function createTestAgeProvider(options: { siteUrl: string; secret: string }): TestAgeProvider {
  /** Sessions this instance has seen, with the choice made here. */
  const sessions = new Map<string, TestAgeSession>();
  const base = options.siteUrl.replace(/\/$/, '');
  /** The session as this instance knows it, else as its id carries it (started on another instance). */
  const sessionOf = (sessionId: string): TestAgeSession | null => {
    const known = sessions.get(sessionId);
    if (known) return known;
    const opened = openSession(sessionId, options.secret);
    if (!opened) return null;
    forgetOld();
    sessions.set(sessionId, opened);
    return opened;
  };

  const forgetOld = () => {
    const oldest = Date.now() - SESSION_HOURS * 3_600_000;
    for (const [id, session] of sessions) {
      if (session.createdAt >= oldest && sessions.size <= MAX_SESSIONS) break;
      sessions.delete(id);
    }
  };

  return {
    name: 'test',
    test: true,
    startSession: async ({ accountId, returnUrl }) => {
      forgetOld();
      const createdAt = Date.now();
      const sessionId = sealSession({ accountId, returnUrl, createdAt }, options.secret);
      sessions.set(sessionId, { sessionId, accountId, returnUrl, createdAt, result: { status: 'pending' } });
      return { sessionId, uri: `${base}/test-age-provider/${sessionId}` };
    },
    getResult: async (sessionId) => sessionOf(sessionId)?.result ?? { status: 'failed' },
    verifyCallback: (rawBody, headers) => {
      const header = headers[AGE_PROVIDER_SIGNATURE_HEADER];
      if (!isValidBodyHeader(rawBody, Array.isArray(header) ? header[0] : header, options.secret)) return null;
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return null;
      }
      const parsed = v.safeParse(AgeProviderCallbackSchema, body);
      if (!parsed.success) return null;
      const { sessionId, status, ageOver18 } = parsed.output;
      return { sessionId, result: ageOver18 === undefined ? { status, providerStatus: 'TEST' } : { status, ageOver18, providerStatus: 'TEST' } };
    },
    findSession: sessionOf,
    decide: (sessionId, outcome) => {
      const session = sessionOf(sessionId);
      if (!session) return null;
      if (session.result.status === 'pending') {
        session.result =
          outcome === 'pass'
            ? { status: 'passed', ageOver18: true, providerStatus: 'TEST' }
            : outcome === 'fail'
              ? { status: 'failed', ageOver18: false, providerStatus: 'TEST' }
              : { status: 'failed', providerStatus: 'TEST' };
      }
      return session;
    },
  };
}

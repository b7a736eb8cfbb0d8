import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { AgeProviderCallbackSchema } from '#lib/schemas/verification.ts';
import type { AgeCheckStatus, AgeVerificationProvider } from '../types.ts';

/**
 * The built-in TEST age-verification provider (AGE_PROVIDER=test: the default in development and tests;
 * with NODE_ENV=production only with ALLOW_TEST_PROVIDERS, see src/server/config.ts). NO AGE IS CHECKED:
 * whoever holds the link presses Pass. It behaves like a hosted check: `startSession` answers a page of
 * ours, `/test-age-provider/{sessionId}` (src/server/api/test-age-provider.ts), where a person presses
 * Pass, Fail or Cancel; the page then posts a signed callback to /api/backend/yoticallback and sends the
 * browser back to the return address with `?sessionId=…`. A passed test check still waits for support,
 * who may accept it only outside production (docs/decisions/019-test-providers-and-yoti.md). Sessions
 * live in this process's memory: a restart forgets unfinished ones, as a provider's sessions expire.
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
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function isValidSignature(body: Uint8Array, header: string | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const given = Buffer.from(header.slice('sha256='.length).toLowerCase(), 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Sessions older than this are forgotten (as a provider's sessions expire). */
const SESSION_HOURS = 24;
const MAX_SESSIONS = 10_000;

export function createTestAgeProvider(options: { siteUrl: string; secret: string }): TestAgeProvider {
  const sessions = new Map<string, TestAgeSession>();
  const base = options.siteUrl.replace(/\/$/, '');

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
      const sessionId = `test-${randomBytes(16).toString('hex')}`;
      sessions.set(sessionId, { sessionId, accountId, returnUrl, createdAt: Date.now(), result: { status: 'pending' } });
      return { sessionId, uri: `${base}/test-age-provider/${sessionId}` };
    },
    getResult: async (sessionId) => sessions.get(sessionId)?.result ?? { status: 'failed' },
    verifyCallback: (rawBody, headers) => {
      const header = headers[AGE_PROVIDER_SIGNATURE_HEADER];
      if (!isValidSignature(rawBody, Array.isArray(header) ? header[0] : header, options.secret)) return null;
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
    findSession: (sessionId) => sessions.get(sessionId) ?? null,
    decide: (sessionId, outcome) => {
      const session = sessions.get(sessionId);
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

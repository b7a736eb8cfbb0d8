import { randomBytes } from 'node:crypto';
import type { AgeCheckStatus, AgeVerificationProvider } from '../types.ts';

/**
 * The built-in TEST age-verification provider (the default until a real one is configured). It behaves
 * like a hosted check: `startSession` answers a page of ours, `/test-age-provider/{sessionId}`
 * (src/server/api/test-age-provider.ts), where a person presses Pass, Fail or Cancel; the page then
 * posts a signed callback to /api/backend/yoticallback and sends the browser back to the return
 * address with `?sessionId=…`. Sessions live in this process's memory (a real provider keeps them on
 * its side): a restart forgets unfinished ones, as a provider's sessions expire.
 */

export type TestAgeOutcome = 'pass' | 'fail' | 'cancel';

export type TestAgeSession = { sessionId: string; accountId: number; returnUrl: string; createdAt: number; result: AgeCheckStatus };

export type TestAgeProvider = AgeVerificationProvider & {
  findSession: (sessionId: string) => TestAgeSession | null;
  /** Records the person's choice once (a second choice changes nothing); null for an unknown session. */
  decide: (sessionId: string, outcome: TestAgeOutcome) => TestAgeSession | null;
};

/** Sessions older than this are forgotten (as a provider's sessions expire). */
const SESSION_HOURS = 24;
const MAX_SESSIONS = 10_000;

export function createTestAgeProvider(options: { siteUrl: string }): TestAgeProvider {
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
    startSession: async ({ accountId, returnUrl }) => {
      forgetOld();
      const sessionId = `test-${randomBytes(16).toString('hex')}`;
      sessions.set(sessionId, { sessionId, accountId, returnUrl, createdAt: Date.now(), result: { status: 'pending' } });
      return { sessionId, uri: `${base}/test-age-provider/${sessionId}` };
    },
    getResult: async (sessionId) => sessions.get(sessionId)?.result ?? { status: 'failed' },
    findSession: (sessionId) => sessions.get(sessionId) ?? null,
    decide: (sessionId, outcome) => {
      const session = sessions.get(sessionId);
      if (!session) return null;
      if (session.result.status === 'pending') {
        session.result =
          outcome === 'pass'
            ? { status: 'passed', ageOver18: true }
            : outcome === 'fail'
              ? { status: 'failed', ageOver18: false }
              : { status: 'failed' };
      }
      return session;
    },
  };
}

import type { FastifyInstance } from 'fastify';
import {
  AGE_PROVIDER_SIGNATURE_HEADER,
  signAgeProviderBody,
  type TestAgeOutcome,
  type TestAgeProvider,
} from '../adapters/age-verification/test-age-provider.ts';

/**
 * /test-age-provider/{sessionId}: the hosted page of the built-in TEST age-verification provider, plain
 * server-rendered HTML in Danish and English, clearly labelled as a test that checks no age (registered
 * only with AGE_PROVIDER=test; with NODE_ENV=production it also says that this installation runs a test
 * provider and that support cannot accept its result). "Pass (over 18)", "Fail (under
 * 18)" and "Cancel" record the outcome, post the signed server-to-server callback to
 * /api/backend/yoticallback (as a real provider does), and send the browser back to
 * `{siteUrl}/backend/callback-age-verification/?sessionId=…`.
 */

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const OUTCOMES: readonly TestAgeOutcome[] = ['pass', 'fail', 'cancel'];

/** A plain page of a built-in TEST provider (the age check's and the card payments'). */
export function testProviderPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="da">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
.test{background:#fff3cd;border:2px solid #b58100;padding:.75rem 1rem;border-radius:.5rem;font-weight:600}
form{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1.1rem;border-radius:.4rem;border:1px solid #444;background:#fff;cursor:pointer}
button[value=pass]{background:#1e6b34;color:#fff;border-color:#1e6b34}
button[value=fail]{background:#a4161a;color:#fff;border-color:#a4161a}
</style>
</head>
<body>
${body}
</body>
</html>`;
}

export function testAgeProviderRoutes(provider: TestAgeProvider, secret: string, options: { production: boolean } = { production: false }) {
  return async (app: FastifyInstance): Promise<void> => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    // The session id carries the session (test-age-provider.ts), longer than a route parameter may be
    // (Fastify's maxParamLength, 100): the rest of the path is the id.
    app.get('/*', async (request, reply) => {
      const sessionId = (request.params as { '*': string })['*'];
      const session = provider.findSession(sessionId);
      reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
      if (!session) {
        return reply
          .code(404)
          .send(testProviderPage('Ukendt session · Unknown session', '<p class="test">TEST</p><h1>Ukendt session</h1><p lang="en">Unknown session.</p>'));
      }
      const action = `/test-age-provider/${encodeURIComponent(session.sessionId)}`;
      return reply.send(
        testProviderPage(
          'Aldersbekræftelse (TEST) · Age verification (TEST)',
          `<p class="test" role="note"><strong>TEST</strong> · TEST-udbyder: her bekræftes ingen alder, og resultatet venter på support. · <span lang="en">TEST provider: no age is checked here, and the result waits for support.</span></p>${
            options.production
              ? `\n<p class="test" role="alert" data-production-test>Denne installation kører i produktion med test-udbydere slået til (ALLOW_TEST_PROVIDERS). Et TEST-resultat kan aldrig bekræfte nogen her. · <span lang="en">This installation runs in production with test providers allowed (ALLOW_TEST_PROVIDERS). A TEST result can never verify anyone here.</span></p>`
              : ''
          }
<h1>Aldersbekræftelse <span lang="en">· Age verification</span></h1>
<p>Vælg, hvad udbyderen skal svare. <span lang="en">Choose what the provider answers.</span></p>
<form method="post" action="${escapeHtml(action)}">
<button type="submit" name="outcome" value="pass">Bestået (over 18) · <span lang="en">Pass (over 18)</span></button>
<button type="submit" name="outcome" value="fail">Ikke bestået (under 18) · <span lang="en">Fail (under 18)</span></button>
<button type="submit" name="outcome" value="cancel">Annullér · <span lang="en">Cancel</span></button>
</form>`,
        ),
      );
    });

    app.post('/*', async (request, reply) => {
      const sessionId = (request.params as { '*': string })['*'];
      const outcome = (request.body as Record<string, unknown> | undefined)?.['outcome'];
      if (typeof outcome !== 'string' || !OUTCOMES.includes(outcome as TestAgeOutcome)) {
        return reply.code(400).type('text/plain; charset=utf-8').send('outcome must be pass, fail or cancel');
      }
      const session = provider.decide(sessionId, outcome as TestAgeOutcome);
      if (!session) return reply.code(404).type('text/plain; charset=utf-8').send('Unknown session');
      // The server-to-server callback, signed as a real provider signs it.
      const body = JSON.stringify({ sessionId: session.sessionId, ...session.result });
      const answer = await app.inject({
        method: 'POST',
        url: '/api/backend/yoticallback',
        headers: { 'content-type': 'application/json', [AGE_PROVIDER_SIGNATURE_HEADER]: signAgeProviderBody(body, secret) },
        payload: body,
      });
      if (answer.statusCode >= 300) request.log.error({ status: answer.statusCode }, 'the test age provider callback was refused');
      return reply.redirect(`${session.returnUrl}?sessionId=${encodeURIComponent(session.sessionId)}`, 303);
    });
  };
}

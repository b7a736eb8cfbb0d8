import type { FastifyInstance, FastifyReply } from 'fastify';
import { testProviderPage } from './test-age-provider.ts';

/**
 * What the hosted pages of the built-in TEST payment providers share (card, crypto, carrier): the note that
 * it is a TEST, the form parser, when a postback goes out (before the buyer returns, right after, after a
 * delay, or never; once or twice at the same moment) and a plain-text answer.
 */

export const TIMINGS = ['before-return', 'after-return', 'delayed', 'never'] as const;
export type Timing = (typeof TIMINGS)[number];

export const TEST_NOTE = `<p class="test" role="note"><strong>TEST</strong> · Testbetaling: her flyttes ingen penge. · <span lang="en">TEST payment provider: no money moves here.</span></p>`;

/** The note of a production installation that runs test providers (ALLOW_TEST_PROVIDERS). */
export const productionNote = (method: string) =>
  `<p class="test" role="alert" data-production-test>Denne installation kører i produktion med test-udbydere slået til (ALLOW_TEST_PROVIDERS). · <span lang="en">This installation runs in production with test providers allowed (ALLOW_TEST_PROVIDERS). A TEST-PAY reference never credits anything while a live ${method} provider is configured.</span></p>`;

export const timingOptions = () => TIMINGS.map((name) => `<option value="${name}">${name}</option>`).join('');

export const textReply = (reply: FastifyReply, status: number, message: string) => reply.code(status).type('text/plain; charset=utf-8').send(message);

/** The timing fields of a decision form: when, how long a delay (1–600 s), and whether twice; null when the timing is unknown. */
export function readTiming(body: Record<string, string | undefined>): { timing: Timing; delayMs: number; twice: boolean } | null {
  const timing = (body['timing'] ?? 'before-return') as Timing;
  if (!TIMINGS.includes(timing)) return null;
  const delaySeconds = Math.min(600, Math.max(1, Number.parseInt(body['delaySeconds'] ?? '10', 10) || 10));
  return { timing, delayMs: delaySeconds * 1000, twice: body['twice'] === '1' };
}

/**
 * A decision form's fields: the outcome (one of `outcomes`) and its timing, or the plain-text reason it is
 * refused (400).
 */
export function readDecision<Outcome extends string>(
  body: Record<string, string | undefined>,
  outcomes: readonly Outcome[],
): { outcome: Outcome; when: NonNullable<ReturnType<typeof readTiming>> } | { refused: string } {
  const outcome = body['outcome'] as Outcome;
  if (!outcomes.includes(outcome)) return { refused: `outcome must be one of ${outcomes.join(', ')}` };
  const when = readTiming(body);
  if (!when) return { refused: `timing must be one of ${TIMINGS.join(', ')}` };
  return { outcome, when };
}

/** GET /:id — the hosted page of one payment (never cached), or the "unknown payment" page (404). */
export function hostedPageRoute<Session>(app: FastifyInstance, find: (id: string) => Session | null, render: (session: Session) => string): void {
  app.get('/:id', async (request, reply) => {
    const session = find((request.params as { id: string }).id);
    reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
    if (!session) return reply.code(404).send(testProviderPage('Ukendt betaling · Unknown payment', `${TEST_NOTE}<h1>Ukendt betaling</h1><p lang="en">Unknown payment.</p>`));
    return reply.send(render(session));
  });
}

/**
 * Registers the urlencoded form parser of the page's buttons and answers how postbacks go out: `send` runs
 * a postback once or twice at the same moment (a refusal is logged without its content), `sendAt` at a
 * timing (the timers are cleared when the server closes).
 */
export function testPostbackSender(app: FastifyInstance, label: string) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  const timers = new Set<NodeJS.Timeout>();
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });
  const send = async (postback: () => Promise<number>, twice: boolean): Promise<number[]> => {
    const statuses = await Promise.all(Array.from({ length: twice ? 2 : 1 }, postback));
    if (statuses.some((status) => status !== 200)) app.log.warn({ statuses }, `the test ${label} provider postback was not accepted`);
    return statuses;
  };
  const later = (postback: () => Promise<unknown>, delayMs: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      postback().catch((error: unknown) => app.log.warn({ err: error }, `the test ${label} provider could not send a postback`));
    }, delayMs);
    timers.add(timer);
  };
  /** Runs `postbacks` (which sends the decision's postbacks in order) at the chosen timing. */
  const sendAt = async (when: { timing: Timing; delayMs: number }, postbacks: () => Promise<unknown>) => {
    if (when.timing === 'before-return') await postbacks();
    if (when.timing === 'after-return') later(postbacks, 0);
    if (when.timing === 'delayed') later(postbacks, when.delayMs);
  };
  return { send, sendAt };
}

type PostbackSender = ReturnType<typeof testPostbackSender>;
const bodyOf = (request: { body?: unknown }) => (request.body ?? {}) as Record<string, string | undefined>;
const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

/**
 * POST /:id — the person's decision on a hosted page: the outcome and its timing (400 when unknown), the
 * payment (404), then `decide` records it and answers the postbacks it sends (in order; none: nothing goes
 * out), sent at the chosen timing, and where the buyer goes back to.
 */
export function decisionRoute<Session, Outcome extends string>(
  app: FastifyInstance,
  sender: PostbackSender,
  options: {
    outcomes: readonly Outcome[];
    find: (id: string) => Session | null;
    decide: (session: Session, outcome: Outcome, twice: boolean) => { postbacks: (() => Promise<unknown>) | null; returnUrl: string };
  },
): void {
  app.post('/:id', async (request, reply) => {
    const decision = readDecision(bodyOf(request), options.outcomes);
    if ('refused' in decision) return textReply(reply, 400, decision.refused);
    const session = options.find(idOf(request));
    if (!session) return textReply(reply, 404, 'Unknown payment');
    const { postbacks, returnUrl } = options.decide(session, decision.outcome, decision.when.twice);
    if (postbacks) await sender.sendAt(decision.when, postbacks);
    return reply.redirect(returnUrl, 303);
  });
}

/**
 * POST /:id/{path} — a later event of a decided payment sent now (a rebill, a refund, an invoice's next
 * status, …; `field` names it, once or twice), answered with a page that lists the statuses our postback
 * route gave and the panel for the next one. `refusal` says why the payment has no later events yet (409).
 */
export function laterEventRoute<Session, Event extends string>(
  app: FastifyInstance,
  options: {
    path: string;
    field: string;
    events: readonly Event[];
    find: (id: string) => Session | null;
    refusal: (session: Session) => string | null;
    send: (session: Session, event: Event, twice: boolean) => Promise<number[]>;
    /** The page's title, the word for what was sent (Postback, Notification, Callback) and the panel. */
    page: { title: string; sent: string; panel: (session: Session) => string };
  },
): void {
  app.post(`/:id/${options.path}`, async (request, reply) => {
    const body = bodyOf(request);
    const event = body[options.field] as Event;
    if (!options.events.includes(event)) return textReply(reply, 400, `${options.field} must be one of ${options.events.join(', ')}`);
    const session = options.find(idOf(request));
    if (!session) return textReply(reply, 404, 'Unknown payment');
    const refusal = options.refusal(session);
    if (refusal) return textReply(reply, 409, refusal);
    const statuses = await options.send(session, event, body['twice'] === '1');
    reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
    return reply.send(
      testProviderPage(
        options.page.title,
        `${TEST_NOTE}<p>${options.page.sent} <strong>${event}</strong> sent: <span data-statuses="${statuses.join(',')}">${statuses.join(', ')}</span></p>${options.page.panel(session)}`,
      ),
    );
  });
}

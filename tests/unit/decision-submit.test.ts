import { describe, expect, it, vi } from 'vitest';
import { ApiError, HttpError } from '#lib/api/errors.ts';
import { sendDecision } from '../../src/dashboards/support/decision-submit.ts';

/** What the API answers when another support user decided first (409, an HttpError in the client). */
const alreadyDecided = () =>
  new HttpError({
    url: '/api/support/decidecontentreport',
    status: 409,
    statusText: 'Conflict',
    body: { title: 'Conflict', status: 409, errors: [{ field: 'Id', message: 'alreadyDecided' }] },
  });

function setup() {
  const form = { reset: vi.fn() };
  const handlers = { onDecided: vi.fn(), onAlreadyDecided: vi.fn() };
  return { form, handlers };
}

describe('sending a support decision (every decision screen)', () => {
  const values = { Id: 7, Decision: 'no-action', Reason: '' };

  it('leaves the form clean and hands over the answer when the decision is taken', async () => {
    const { form, handlers } = setup();
    await sendDecision(form, values, async () => ({ id: 7, decidedAt: '2026-11-23' }), handlers);
    expect(form.reset).toHaveBeenCalledWith(values);
    expect(handlers.onDecided).toHaveBeenCalledWith({ id: 7, decidedAt: '2026-11-23' });
    expect(handlers.onAlreadyDecided).not.toHaveBeenCalled();
  });

  it('says "already decided" for a 409 alreadyDecided (the report and review screens showed the generic error)', async () => {
    const { form, handlers } = setup();
    await sendDecision(form, values, () => Promise.reject(alreadyDecided()), handlers);
    expect(handlers.onAlreadyDecided).toHaveBeenCalledOnce();
    expect(form.reset).toHaveBeenCalledWith(values);
    expect(handlers.onDecided).not.toHaveBeenCalled();
  });

  it('lets the screen word its own refusals, and passes anything else on to the form, which keeps what was typed', async () => {
    const { form, handlers } = setup();
    const sameModerator = new HttpError({
      url: '/api/support/decideappeal',
      status: 403,
      statusText: 'Forbidden',
      body: { status: 403, errors: [{ field: 'Id', message: 'sameModerator' }] },
    });
    const onRefused = vi.fn((key: string) => key === 'sameModerator');
    await sendDecision(form, values, () => Promise.reject(sameModerator), { ...handlers, onRefused });
    expect(onRefused).toHaveBeenCalledWith('sameModerator');
    expect(form.reset).not.toHaveBeenCalled();

    const invalid = new ApiError({ url: '/api/support/decideappeal', status: 400, statusText: '', body: { status: 400, errors: [{ field: 'Reason', message: 'required' }] } });
    await expect(sendDecision(form, values, () => Promise.reject(invalid), { ...handlers, onRefused })).rejects.toBe(invalid);
    expect(form.reset).not.toHaveBeenCalled();
    expect(handlers.onDecided).not.toHaveBeenCalled();
  });
});

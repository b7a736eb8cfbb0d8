/**
 * The one list of what support may not do while signed in as the advertiser (impersonation, issue 6):
 * `refuseWhileImpersonating` refuses each entry with 403 `whileImpersonating` for an impersonation session,
 * and lets the advertiser's own session through. The calls themselves: tests/integration/impersonation.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SENSITIVE_WHILE_IMPERSONATING, refuseWhileImpersonating } from '#server/domain/accounts/impersonation.ts';
import type { Actor } from '#server/domain/context.ts';

const own: Actor = { type: 'advertiser', accountId: 7, sessionId: 's', impersonatedBy: null };
const impersonating: Actor = { type: 'advertiser', accountId: 7, sessionId: 's', impersonatedBy: 3 };

describe('sensitive actions while impersonating', () => {
  it('covers the credentials, the contact details, verification and appeals', () => {
    expect([...SENSITIVE_WHILE_IMPERSONATING].sort()).toEqual(
      ['account.delete', 'account.export', 'appeal.submit', 'email.change', 'password.change', 'phone.change', 'verification.age_check', 'verification.files', 'verification.upload', 'order.buy'].sort(),
    );
  });

  it.each(SENSITIVE_WHILE_IMPERSONATING)('%s: refused for support as the advertiser, allowed for the advertiser', (action) => {
    expect(() => refuseWhileImpersonating(impersonating, action)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', fields: [{ field: '', message: 'whileImpersonating' }] }),
    );
    expect(() => refuseWhileImpersonating(own, action)).not.toThrow();
  });
});

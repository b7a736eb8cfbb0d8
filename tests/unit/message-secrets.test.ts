/**
 * The messages that grant access name their secrets (issue 15), so that the outbox can keep and show them
 * masked: the email-verification link, the sign-up confirmation link (first and repeated sign-up), the
 * password-reset link (advertisers and support users) and the SMS code, in both languages. Notices carry no secret.
 */
import { describe, expect, it } from 'vitest';
import {
  emailVerificationLink,
  emailVerificationMessage,
  passwordChangedMessage,
  passwordResetLink,
  passwordResetMessage,
  signUpAttemptMessage,
  signUpConfirmationLink,
  signUpConfirmationMessage,
  smsCodeMessage,
  type Site,
} from '#server/domain/accounts/account-messages.ts';
import { MASKED_SECRET, maskSecrets } from '#server/adapters/messaging/outbox-messaging.ts';

const site: Site = { siteName: 'Annoncekatalog', siteUrl: 'https://example.dk', supportEmail: 'support@example.dk' };
const token = 'c2VjcmV0LXRva2VuLXRoYXQtZ3JhbnRzLWFjY2Vzcw';

describe('messages that grant access name their secrets', () => {
  for (const locale of ['da', 'en'] as const) {
    it(`masks every link and code (${locale})`, () => {
      const messages = [
        emailVerificationMessage(site, locale, 'a@example.test', emailVerificationLink(site, token), 24),
        passwordResetMessage(site, locale, 'a@example.test', passwordResetLink(site, locale, token, 7), 60),
        passwordResetMessage(site, locale, 's@example.test', passwordResetLink(site, locale, token, 7, 'support'), 60, 'support'),
        smsCodeMessage(site, locale, '+4520304050', '123456', 10),
        ...[false, true].map((again) =>
          signUpConfirmationMessage(site, locale, 'a@example.test', { url: signUpConfirmationLink(site, locale, token), hours: 24, removedAfterDays: 8 }, { again }),
        ),
      ];
      for (const message of messages) {
        expect(message.secrets?.length).toBeGreaterThan(0);
        const masked = maskSecrets(message.text, message.secrets);
        expect(masked).toContain(MASKED_SECRET);
        expect(masked).not.toContain(token);
        expect(masked).not.toContain('123456');
      }
    });
  }

  it('leaves notices as they are', () => {
    for (const message of [passwordChangedMessage(site, 'da', 'a@example.test', new Date()), signUpAttemptMessage(site, 'en', 'a@example.test')]) {
      expect(message.secrets).toBeUndefined();
      expect(maskSecrets(message.text, message.secrets)).toBe(message.text);
    }
  });
});

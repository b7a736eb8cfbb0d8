import type { Db } from '../../db/client.ts';
import type { Messaging } from '../types.ts';
import { createOutboxMessaging } from './outbox-messaging.ts';
import { createSmtpDelivery } from './smtp-delivery.ts';

export type MessagingSettings = {
  /** Email also goes out over SMTP when set (SMTP_URL). */
  smtpUrl: string | undefined;
  /** The From header of outgoing email (MAIL_FROM). */
  mailFrom: string;
};

type WarnLogger = { warn: (details: Record<string, unknown>, message: string) => void };

/** The server's messaging: the outbox always, SMTP for email when configured. */
export function createMessaging(db: Db, settings: MessagingSettings, log?: WarnLogger): Messaging & { close: () => void } {
  const email = settings.smtpUrl ? createSmtpDelivery({ url: settings.smtpUrl, from: settings.mailFrom }) : undefined;
  const messaging = createOutboxMessaging(db, {
    email,
    onDeliveryError: (error, outboxId) =>
      log?.warn({ outboxId, err: error }, 'email delivery failed; the message stays in the outbox'),
  });
  return { ...messaging, close: () => email?.close() };
}

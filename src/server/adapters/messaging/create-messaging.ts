import type { Db } from '../../db/client.ts';
import type { Messaging } from '../types.ts';
import { createOutboxMessaging, redeliverEmail } from './outbox-messaging.ts';
import { createSmtpDelivery } from './smtp-delivery.ts';

/** The job queue of email retries (src/server/main.ts runs it): payload `{ outboxId }`. */
export const EMAIL_RETRY_QUEUE = 'email.retry';

export type MessagingSettings = {
  /** Email also goes out over SMTP when set (SMTP_URL). */
  smtpUrl: string | undefined;
  /** The From header of outgoing email (MAIL_FROM). */
  mailFrom: string;
  /**
   * NODE_ENV is development or test: the outbox keeps the clear text of messages no real provider
   * delivers (it is the developer's mailbox). Otherwise (production, and by default) it keeps their links
   * and codes masked only.
   */
  keepUndeliveredSecrets?: boolean | undefined;
  /**
   * Asked to try a failed email again later (the main job queues an EMAIL_RETRY_QUEUE job, which retries
   * with backoff for about three hours). Without it a failure stays on its row.
   */
  scheduleRetry?: ((outboxId: number) => Promise<void>) | undefined;
};

type WarnLogger = { warn: (details: Record<string, unknown>, message: string) => void };

export type ServerMessaging = Messaging & {
  close: () => void;
  /** Delivers a stored email whose delivery failed (the retry job); throws when it fails again. */
  retryEmail: (outboxId: number) => Promise<void>;
};

/**
 * The server's messaging: the outbox always (secrets masked once delivered, and always in production
 * without a provider), SMTP for email when configured, failed emails retried.
 */
export function createMessaging(db: Db, settings: MessagingSettings, log?: WarnLogger): ServerMessaging {
  const email = settings.smtpUrl ? createSmtpDelivery({ url: settings.smtpUrl, from: settings.mailFrom }) : undefined;
  const messaging = createOutboxMessaging(db, {
    email,
    keepUndeliveredSecrets: settings.keepUndeliveredSecrets,
    onDeliveryError: (error, outboxId) => {
      log?.warn({ outboxId, err: error }, 'email delivery failed; the message stays in the outbox and is tried again later');
      settings.scheduleRetry?.(outboxId).catch((failure: unknown) => log?.warn({ outboxId, err: failure }, 'could not schedule the email retry'));
    },
  });
  return {
    ...messaging,
    close: () => email?.close(),
    retryEmail: async (outboxId) => {
      if (email) await redeliverEmail(db, email, outboxId);
    },
  };
}

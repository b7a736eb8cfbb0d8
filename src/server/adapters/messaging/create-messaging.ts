import type { Db } from '../../db/client.ts';
import type { Messaging } from '../types.ts';
import { createOutboxMessaging, redeliverMessage } from './outbox-messaging.ts';
import { createSmtpDelivery } from './smtp-delivery.ts';
import { createGatewayApiSms, type GatewayApiOptions } from './gatewayapi-sms.ts';

/**
 * The job queue of message retries (src/server/main.ts runs it): payload `{ outboxId }`, an email or an
 * SMS. The queue keeps the name it had when only email was retried, so jobs queued before still run.
 */
export const MESSAGE_RETRY_QUEUE = 'email.retry';

export type MessagingSettings = {
  /** Email also goes out over SMTP when set (SMTP_URL). */
  smtpUrl: string | undefined;
  /** The From header of outgoing email (MAIL_FROM). */
  mailFrom: string;
  /** SMS also goes out through GatewayAPI when set (SMS_PROVIDER=gatewayapi, docs/decisions/039). */
  gatewayApi?: GatewayApiOptions | undefined;
  /**
   * NODE_ENV is development or test: the outbox keeps the clear text of messages no real provider
   * delivers (it is the developer's mailbox). Otherwise (production, and by default) it keeps their links
   * and codes masked only.
   */
  keepUndeliveredSecrets?: boolean | undefined;
  /**
   * Asked to try a failed message again later (the main job queues a MESSAGE_RETRY_QUEUE job, which retries
   * with backoff for about three hours). Without it a failure stays on its row.
   */
  scheduleRetry?: ((outboxId: number) => Promise<void>) | undefined;
};

type WarnLogger = { warn: (details: Record<string, unknown>, message: string) => void };

export type ServerMessaging = Messaging & {
  close: () => void;
  /** Delivers a stored message whose delivery failed (the retry job); throws when it fails again. */
  retryMessage: (outboxId: number) => Promise<void>;
};

/**
 * The server's messaging: the outbox always (secrets masked once delivered, and always in production
 * without a provider), SMTP for email and GatewayAPI for SMS when configured, failed deliveries retried.
 */
export function createMessaging(db: Db, settings: MessagingSettings, log?: WarnLogger): ServerMessaging {
  const email = settings.smtpUrl ? createSmtpDelivery({ url: settings.smtpUrl, from: settings.mailFrom }) : undefined;
  const sms = settings.gatewayApi ? createGatewayApiSms(settings.gatewayApi) : undefined;
  const messaging = createOutboxMessaging(db, {
    email,
    sms,
    keepUndeliveredSecrets: settings.keepUndeliveredSecrets,
    onDeliveryError: (error, outboxId, channel) => {
      log?.warn({ outboxId, channel, err: error }, `${channel} delivery failed; the message stays in the outbox and is tried again later`);
      settings.scheduleRetry?.(outboxId).catch((failure: unknown) => log?.warn({ outboxId, err: failure }, 'could not schedule the message retry'));
    },
  });
  return {
    ...messaging,
    close: () => email?.close(),
    retryMessage: (outboxId) => redeliverMessage(db, { email, sms }, outboxId),
  };
}

/**
 * The interfaces of the adapters (mail, SMS, …). The domain imports only this file; the
 * implementations live beside it (`adapters/messaging/…`) and are chosen by the server at start.
 */

/** A plain-text email. */
export type OutgoingEmail = { to: string; subject: string; text: string };

/** A text message; `to` in E.164 form (+45…). */
export type OutgoingSms = { to: string; text: string };

/**
 * Mail and SMS. The default implementation writes every message to the outbox (`outbox_messages`,
 * readable by support and by tests); with SMTP configured, email also goes out over SMTP.
 * A call resolves once the message is stored; a failed delivery is recorded on its outbox row.
 */
export type Messaging = {
  sendEmail: (message: OutgoingEmail) => Promise<void>;
  sendSms: (message: OutgoingSms) => Promise<void>;
};

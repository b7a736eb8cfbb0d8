import nodemailer from 'nodemailer';
import type { OutgoingEmail } from '../types.ts';
import type { EmailDelivery } from './outbox-messaging.ts';

export type SmtpOptions = {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (TLS). */
  url: string;
  /** The From header, e.g. `Annoncekatalog <no-reply@example.dk>`. */
  from: string;
};

/** Email over SMTP through nodemailer (a connection per message: account mail is rare). Throws when the server refuses. */
export function createSmtpDelivery(options: SmtpOptions): EmailDelivery {
  const transport = nodemailer.createTransport(
    {
      url: options.url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    },
    { from: options.from },
  );
  return {
    async deliver(message: OutgoingEmail) {
      await transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}

/**
 * A loopback SMTP server (smtp-server) that keeps what it receives, for the tests that send real mail: the
 * email adapter's integration tests (tests/integration/accounts-smtp.test.ts) and the production journey
 * (tests/production/), where the server's SMTP_URL names it. Recipients at refused.test are refused, and so
 * are the addresses in `refusing` for as long as they are there (a mailbox that is down for a while).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; data: string };

export type SmtpStandIn = { url: string; received: ReceivedMail[]; refusing: Set<string>; close: () => Promise<void> };

export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = [];
  const refusing = new Set<string>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.test') || refusing.has(address.address)) {
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refusing,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** Decodes a quoted-printable mail body enough to read it (soft line breaks, =XX bytes). */
export function readableMail(data: string): string {
  const joined = data.replace(/=\r?\n/g, '');
  return Buffer.from(joined.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

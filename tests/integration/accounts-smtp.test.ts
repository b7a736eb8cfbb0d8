/**
 * The email adapter over a real SMTP wire: a small SMTP server (smtp-server) on loopback receives what
 * the SMTP delivery sends; the outbox row records sentAt or the error. Then the whole server with
 * SMTP_URL set: createprofile's sign-up link arrives by SMTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { outboxMessages } from '#server/db/schema.ts';
import { createMessaging } from '#server/adapters/messaging/create-messaging.ts';
import { pruneOutbox } from '#server/domain/accounts/list-outbox-messages.ts';
import { openTestDatabase, startTestServer } from '#tests/support/test-server.ts';
import { readableMail, startSmtpStandIn, type SmtpStandIn } from '#tests/support/smtp-stand-in.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createProfileOverHttp, outboxFor } from './accounts-helpers.ts';

let smtp: SmtpStandIn;
let database: { handle: DatabaseHandle; drop: () => Promise<void> };

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  await smtp?.close();
});

describe('the SMTP email adapter', () => {
  it('delivers over SMTP and records sentAt on the outbox row, where the link is kept masked only', async () => {
    const messaging = createMessaging(database.handle.db, {
      smtpUrl: smtp.url,
      mailFrom: 'Annoncekatalog <no-reply@example.test>',
      keepUndeliveredSecrets: true,
    });
    const link = 'http://localhost:3000/backend/basic/?url=abc';
    await messaging.sendEmail({ to: 'sofie@example.test', subject: 'Bekræft din e-mailadresse', text: `Hej,\nåbn linket: ${link}`, secrets: [link] });
    messaging.close();

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail).toMatchObject({ from: 'no-reply@example.test', to: ['sofie@example.test'] });
    const text = readableMail(mail!.data);
    expect(text).toContain('From: Annoncekatalog <no-reply@example.test>');
    expect(text).toContain('åbn linket: http://localhost:3000/backend/basic/?url=abc');
    const [row] = await database.handle.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, 'sofie@example.test'));
    expect(row).toMatchObject({ channel: 'email', subject: 'Bekræft din e-mailadresse', error: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
    // Delivered: only the recipient has the link (issue 15), even where the outbox keeps undelivered text.
    expect(row!.body).toBe('Hej,\nåbn linket: [hidden: sent only to the recipient]');
    expect(row!.maskedBody).toBe(row!.body);
  });

  it('keeps a refused message in the outbox with the error, without failing the caller', async () => {
    const warnings: unknown[] = [];
    const messaging = createMessaging(
      database.handle.db,
      { smtpUrl: smtp.url, mailFrom: 'no-reply@example.test' },
      { warn: (details) => void warnings.push(details) },
    );
    await expect(messaging.sendEmail({ to: 'someone@refused.test', subject: 'Hej', text: 'Tekst' })).resolves.toBeUndefined();
    messaging.close();
    const [row] = await database.handle.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, 'someone@refused.test'));
    expect(row).toMatchObject({ body: 'Tekst', sentAt: null });
    expect(row!.error).toMatch(/550|Mailbox unavailable/);
    expect(warnings).toHaveLength(1);
  });

  it('tries a failed email again: delivered once the server takes it, never twice', async () => {
    const scheduled: number[] = [];
    const messaging = createMessaging(database.handle.db, {
      smtpUrl: smtp.url,
      mailFrom: 'no-reply@example.test',
      scheduleRetry: async (outboxId) => void scheduled.push(outboxId),
    });
    smtp.refusing.add('later@example.test');
    const link = 'http://localhost:3000/login/change/?token=later-token&id=7';
    await messaging.sendEmail({ to: 'later@example.test', subject: 'Nulstil din adgangskode', text: `${link}\nLinket virker i 1 time.`, secrets: [link] });
    expect(scheduled).toHaveLength(1);
    const id = scheduled[0]!;
    const row = async () => (await database.handle.db.select().from(outboxMessages).where(eq(outboxMessages.id, id)))[0]!;
    // Kept in clear until delivered: the retry sends it from the row.
    expect(await row()).toMatchObject({ recipient: 'later@example.test', sentAt: null, body: `${link}\nLinket virker i 1 time.` });

    // Still refused: the retry fails (the job queue tries again later), and the row says why.
    await expect(messaging.retryMessage(id)).rejects.toThrow(/550|Mailbox unavailable/);
    expect((await row()).sentAt).toBeNull();

    // The mailbox is back: the retry delivers it, and a second retry sends nothing.
    smtp.refusing.delete('later@example.test');
    const before = smtp.received.length;
    await messaging.retryMessage(id);
    expect(await row()).toMatchObject({ error: null });
    expect((await row()).sentAt).toBeInstanceOf(Date);
    await messaging.retryMessage(id);
    messaging.close();
    const delivered = smtp.received.slice(before);
    expect(delivered.map((m) => m.to)).toEqual([['later@example.test']]);
    expect(readableMail(delivered[0]!.data)).toContain(link);
    expect(readableMail(delivered[0]!.data)).toContain('Linket virker i 1 time.');
    expect((await row()).body).toBe('[hidden: sent only to the recipient]\nLinket virker i 1 time.');
  });

  it('keeps messages for 30 days: older ones, with their codes and links, are pruned', async () => {
    const now = new Date();
    const days = (n: number) => new Date(now.getTime() - n * 86_400_000);
    const db = database.handle.db;
    await db.insert(outboxMessages).values([
      { channel: 'sms', recipient: '+4511111111', body: 'Din kode: 111111', createdAt: days(31) },
      { channel: 'sms', recipient: '+4522222222', body: 'Din kode: 222222', createdAt: days(29) },
    ]);
    expect(await pruneOutbox(db, now)).toBeGreaterThanOrEqual(1);
    const left = await db.select({ recipient: outboxMessages.recipient }).from(outboxMessages);
    expect(left.map((r) => r.recipient)).not.toContain('+4511111111');
    expect(left.map((r) => r.recipient)).toContain('+4522222222');
  });

  it('SMS stays in the outbox (no SMS provider yet)', async () => {
    const messaging = createMessaging(database.handle.db, { smtpUrl: smtp.url, mailFrom: 'no-reply@example.test' });
    const before = smtp.received.length;
    await messaging.sendSms({ to: '+4520304050', text: 'Din kode: 123456' });
    expect(smtp.received).toHaveLength(before);
    const [row] = await database.handle.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, '+4520304050'));
    expect(row).toMatchObject({ channel: 'sms', body: 'Din kode: 123456' });
  });
});

describe('createprofile with SMTP_URL set', () => {
  it('sends the sign-up link over SMTP and keeps it masked in the outbox; the link from the mail confirms the sign-up', async () => {
    const previous = process.env['SMTP_URL'];
    process.env['SMTP_URL'] = smtp.url;
    const server = await startTestServer();
    try {
      const linkInMail = async (email: string) => {
        await server.settle();
        const mail = smtp.received.find((m) => m.to.includes(email));
        expect(mail).toBeDefined();
        const token = /\/create\/\?confirm=([\w-]{40,})/.exec(readableMail(mail!.data))?.[1];
        expect(token).toBeDefined();
        return token!;
      };
      const { email, profile } = await createProfileOverHttp(server, {}, { signUpToken: linkInMail });
      expect(profile).toMatchObject({ email, emailVerified: true });
      const [row] = await outboxFor(server, email);
      expect(row!.sentAt).toBeInstanceOf(Date);
      // The outbox keeps the link masked; the owner's link from the mail confirmed the sign-up.
      expect(row!.body).not.toMatch(/confirm=/);
    } finally {
      if (previous === undefined) delete process.env['SMTP_URL'];
      else process.env['SMTP_URL'] = previous;
      await server.close();
    }
  });
});

/**
 * Messages as the site sent them, read from the outbox the way support reads it (GET /api/support/outbox,
 * with a support request context of its own, `supportAdminRequest`): SMS codes and email links.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures.ts';

export type OutboxItem = { channel: 'email' | 'sms'; to: string; subject: string | null; body: string; createdAt: string; status: string };

/** The newest outbox message to `to` whose body contains `marker` (messages are stored before the call answers). */
export async function lastMessage(support: APIRequestContext, to: string, marker: string | RegExp): Promise<OutboxItem> {
  let found: OutboxItem | undefined;
  await expect
    .poll(async () => {
      const answer = await support.get('/api/support/outbox', { params: { To: to, Take: 20 } });
      expect(answer.status()).toBe(200);
      const { items } = (await answer.json()) as { items: OutboxItem[] };
      found = items.find((item) => (typeof marker === 'string' ? item.body.includes(marker) : marker.test(item.body)));
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

/** The 6-digit code of the newest SMS to a Danish number (8 digits, without +45). */
export async function smsCode(support: APIRequestContext, phone: string): Promise<string> {
  const sms = await lastMessage(support, `+45${phone}`, /\b\d{6}\b/);
  expect(sms.channel).toBe('sms');
  return /\b(\d{6})\b/.exec(sms.body)![1]!;
}

/** The path and query of the first link in a message to our own site (the link's host may differ). */
export function linkIn(message: OutboxItem, path: string): string {
  const link = new RegExp(`https?://\\S+${path.replace(/[/?]/g, '\\$&')}\\S*`).exec(message.body)?.[0];
  expect(link, message.body).toBeDefined();
  const url = new URL(link!);
  return url.pathname + url.search;
}

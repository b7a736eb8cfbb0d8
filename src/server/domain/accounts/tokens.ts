import { randomBytes, randomInt } from 'node:crypto';
import { hashToken } from './sessions.ts';

/** A random token for a link (256 bits, base64url: safe in URLs as it is). Only its hash is stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/** A 6-digit SMS code, uniformly random. */
export function newSmsCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** How an SMS code is stored: bound to its account so one hash says nothing about another's code. */
export function hashSmsCode(accountId: number, code: string): string {
  return hashToken(`sms:${accountId}:${code}`);
}

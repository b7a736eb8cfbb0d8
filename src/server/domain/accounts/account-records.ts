import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema.ts';
import type { Actor } from '../context.ts';
import { AppError, notFound } from '../errors.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** An advertiser's account; a deleted one counts as missing. */
export async function getActiveAccount(db: Db, accountId: number): Promise<AccountRow> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!account || account.deletedAt) throw notFound('Account');
  return account;
}

/** The account with this (lower-cased) email, deleted or not, or null. */
export async function findAccountByEmail(db: Db, email: string): Promise<AccountRow | null> {
  const [account] = await db.select().from(accounts).where(eq(accounts.email, email.trim().toLowerCase())).limit(1);
  return account ?? null;
}

/** The actor for audit entries written on an account's own behalf (e.g. right after it was created). */
export function accountActor(accountId: number, sessionId = ''): Actor {
  return { type: 'advertiser', accountId, sessionId, impersonatedBy: null };
}

/** A 400 naming one field with an i18n message key (`validation.<key>`). */
export function invalidField(field: string, key: string, message: string): AppError {
  return new AppError('INVALID', message, [{ field, message: key }]);
}

/** The answer to an email that is taken: clear to its owner, telling nothing more. */
export function emailTaken(field = 'Email'): AppError {
  return new AppError('CONFLICT', 'An account with this email exists; sign in or reset your password.', [
    { field, message: 'emailTaken' },
  ]);
}

/** Whether a database error is a unique-constraint violation (PostgreSQL and PGlite, through Drizzle). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

import { readFileSync } from 'node:fs';
import { AppError } from '../errors.ts';

/** The common-password list shipped beside this file (see its header), loaded once. */
let commonPasswords: Set<string> | undefined;

function loadCommonPasswords(): Set<string> {
  const text = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8');
  return new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

/** Whether a password is on the common-password list (compared in lower case). */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadCommonPasswords();
  return commonPasswords.has(password.trim().toLowerCase());
}

/**
 * The server's part of the password policy (length is checked by the schema, `#lib/schemas/account.ts`):
 * not a common password and not the account's email. Throws INVALID naming `field`.
 */
export function requireAcceptablePassword(password: string, options: { field: string; email?: string | undefined }): void {
  const lowered = password.trim().toLowerCase();
  const email = options.email?.toLowerCase();
  if (isCommonPassword(password) || (email && (lowered === email || lowered === email.split('@')[0]))) {
    throw new AppError('INVALID', 'This password is too common. Choose another one.', [
      { field: options.field, message: 'passwordCommon' },
    ]);
  }
}

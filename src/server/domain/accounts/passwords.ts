import { hash, verify } from '@node-rs/argon2';

/** Argon2id through @node-rs/argon2 (a well-kept library; no hand-rolled hashing). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend comparable time so a missing account is not told apart by timing.
    await hash(password);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

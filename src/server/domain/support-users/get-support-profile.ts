import { eq } from 'drizzle-orm';
import { supportUsers } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../errors.ts';
import { isSupportRole, type SupportRole } from '../permissions.ts';

export type SupportProfile = { id: number; email: string; name: string; permissions: SupportRole[] };

export async function getSupportProfile(db: Db, id: number): Promise<SupportProfile> {
  const [user] = await db.select().from(supportUsers).where(eq(supportUsers.id, id)).limit(1);
  if (!user) throw notFound('Support user');
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? '',
    permissions: (user.permissions ?? []).filter(isSupportRole),
  };
}

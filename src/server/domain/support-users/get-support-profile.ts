import { eq } from 'drizzle-orm';
import { supportUsers } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../errors.ts';
import type { SupportRole } from '../permissions.ts';
import { activeSupportRoles, isTwoFactorRequired } from './support-roles.ts';

/**
 * supportprofile: who is signed in and what they may open. `permissions` leaves out Administration while
 * two-step sign-in is required and not enabled (`twoFactorRequired`).
 */
export type SupportProfile = {
  id: number;
  email: string;
  name: string;
  permissions: SupportRole[];
  twoFactorEnabled: boolean;
  twoFactorRequired: boolean;
};

export async function getSupportProfile(db: Db, id: number): Promise<SupportProfile> {
  const [user] = await db.select().from(supportUsers).where(eq(supportUsers.id, id)).limit(1);
  if (!user) throw notFound('Support user');
  const twoFactorEnabled = user.totpEnabledAt !== null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    permissions: activeSupportRoles(user.permissions, twoFactorEnabled),
    twoFactorEnabled,
    twoFactorRequired: isTwoFactorRequired(user.permissions, twoFactorEnabled),
  };
}

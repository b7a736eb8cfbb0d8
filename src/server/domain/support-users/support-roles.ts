import type { Actor } from '../context.ts';
import { isSupportRole, type SupportRole } from '../permissions.ts';

/**
 * The roles a support user acts with: their stored roles, less Administration while they have not
 * enabled two-step sign-in (required for Administration; until then every Administration call answers
 * 403 and the profile leaves it out).
 */
export function activeSupportRoles(stored: readonly string[] | null, twoFactorEnabled: boolean): SupportRole[] {
  const roles = (stored ?? []).filter(isSupportRole);
  return twoFactorEnabled ? roles : roles.filter((role) => role !== 'Administration');
}

/** Whether the user must enable two-step sign-in before Administration works for them. */
export function isTwoFactorRequired(stored: readonly string[] | null, twoFactorEnabled: boolean): boolean {
  return !twoFactorEnabled && (stored ?? []).includes('Administration');
}

/** The actor for audit entries written on a support user's own behalf without a session (sign-in, reset link). */
export function supportUserActor(supportUserId: number): Actor {
  return { type: 'support', supportUserId, sessionId: '', roles: [], permissions: [] };
}

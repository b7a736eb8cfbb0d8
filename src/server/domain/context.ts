import type { Db } from '../db/client.ts';
import type { MediaStorage } from '../adapters/types.ts';
import type { Permission, SupportRole } from './permissions.ts';

/** Who is acting. Every domain call gets one; permissions are checked against it. */
export type Actor =
  | { type: 'visitor' }
  | { type: 'advertiser'; accountId: number; sessionId: string; impersonatedBy: number | null }
  | {
      type: 'support';
      supportUserId: number;
      sessionId: string;
      roles: SupportRole[];
      permissions: Permission[];
    }
  | { type: 'system' };

/** What the domain announces; the jobs layer listens (e.g. to schedule a site rebuild). */
export type DomainEvent =
  | { type: 'content.changed'; reason: string }
  | { type: 'site.rebuild.requested'; reason: string }
  /** Every session of the account ended (password change, deletion): its open hub connections must go. */
  | { type: 'account.sessions.ended'; accountId: number };

export type DomainEvents = { publish: (event: DomainEvent) => void | Promise<void> };

export type DomainContext = {
  db: Db;
  actor: Actor;
  ip?: string | undefined;
  userAgent?: string | undefined;
  events: DomainEvents;
  now: () => Date;
  /**
   * Media storage, for the changes that publish or take down media files (`publishAdvertChange` →
   * `syncAdvertMedia`, docs/decisions/013). The doors (`contextFor`) and the server's jobs set it.
   */
  storage?: MediaStorage | undefined;
};

export const SYSTEM: Actor = { type: 'system' };
export const VISITOR: Actor = { type: 'visitor' };

import type { Readable } from 'node:stream';

/**
 * The interfaces of the adapters (mail, SMS, …). The domain imports only this file; the
 * implementations live beside it (`adapters/messaging/…`) and are chosen by the server at start.
 */

/** A plain-text email. */
export type OutgoingEmail = { to: string; subject: string; text: string };

/** A text message; `to` in E.164 form (+45…). */
export type OutgoingSms = { to: string; text: string };

/**
 * Mail and SMS. The default implementation writes every message to the outbox (`outbox_messages`,
 * readable by support and by tests); with SMTP configured, email also goes out over SMTP.
 * A call resolves once the message is stored; a failed delivery is recorded on its outbox row.
 */
export type Messaging = {
  sendEmail: (message: OutgoingEmail) => Promise<void>;
  sendSms: (message: OutgoingSms) => Promise<void>;
};

/**
 * Where media files live (docs/decisions/013): `public` files are served at `/media/{key}` with long
 * immutable caching; `private` files (originals, verification files) are never reachable by a URL.
 * Keys are relative paths of generated names (`pictures/12/3f…c1-640.webp`), never user input.
 * Two implementations pass one test suite: local disk under DATA_DIR/media (`media/public`,
 * `media/private`) and S3-compatible object storage (`public/…` and `private/…` in one bucket).
 */
export type StorageArea = 'public' | 'private';

export type StoredObject = { body: Readable; size: number; contentType: string };

export type MediaStorage = {
  /** Stores a file from disk (streamed, never whole in memory). Replaces an existing one. */
  putFile: (area: StorageArea, key: string, filePath: string, contentType: string) => Promise<void>;
  /** Stores bytes held in memory (small files: picture variants, posters). */
  putBytes: (area: StorageArea, key: string, bytes: Uint8Array, contentType: string) => Promise<void>;
  /** Opens a stored file, or null when there is none. */
  open: (area: StorageArea, key: string) => Promise<StoredObject | null>;
  /** Copies a stored file to a local path (for ffmpeg and sharp), streamed. Throws when missing. */
  download: (area: StorageArea, key: string, filePath: string) => Promise<void>;
  exists: (area: StorageArea, key: string) => Promise<boolean>;
  /**
   * Copies a stored file to another key, in the same or the other area (publishing a private master under
   * a new public name, docs/decisions/013). Replaces an existing one; throws when the source is missing.
   */
  copy: (fromArea: StorageArea, fromKey: string, toArea: StorageArea, toKey: string) => Promise<void>;
  /** Deletes one file; a missing one is not an error. */
  delete: (area: StorageArea, key: string) => Promise<void>;
  /** Deletes every file whose key starts with the prefix; answers how many. */
  deletePrefix: (area: StorageArea, prefix: string) => Promise<number>;
  /** The local folder of an area when files are on this disk (served by @fastify/static), else null. */
  localRoot: (area: StorageArea) => string | null;
};

/** The two events of the notification hub (spec §1), sent to the owner's connections only. */
export type HubEventName = 'VideoUploaded' | 'VideoThumbnailUploaded';

/**
 * The notification hub as the domain and jobs see it: a message for one advertiser account reaches
 * every hub connection of that account, on this instance and (with REDIS_URL) on every other one.
 */
export type NotificationHub = {
  sendToAccount: (accountId: number, event: HubEventName, payload: unknown) => Promise<void>;
};

/** What an age-verification provider says about one session. `ageOver18` is known once it has checked. */
export type AgeCheckStatus = { status: 'pending' | 'passed' | 'failed'; ageOver18?: boolean };

/**
 * A hosted age check (spec §7: ageestimation, checksession, yoticallback). `startSession` opens a session
 * for an account and answers the page the browser is sent to (`uri`); the provider sends the browser back
 * to `returnUrl` with `?sessionId=…` and posts a signed callback (HMAC-SHA256 of the body,
 * AGE_PROVIDER_SECRET) to /api/backend/yoticallback. `getResult` asks for the outcome directly (when a
 * callback is late or lost). The built-in test provider (adapters/age-verification/) behaves like one.
 */
export type AgeVerificationProvider = {
  startSession: (input: { accountId: number; returnUrl: string }) => Promise<{ sessionId: string; uri: string }>;
  getResult: (sessionId: string) => Promise<AgeCheckStatus>;
};

import type { Readable } from 'node:stream';

/**
 * The interfaces of the adapters (mail, SMS, …). The domain imports only this file; the
 * implementations live beside it (`adapters/messaging/…`) and are chosen by the server at start.
 */

/**
 * The parts of a message's text that grant access (a reset or verification link, an SMS code): only the
 * recipient may ever read them. The outbox keeps them masked once a real provider delivered the message,
 * and every outbox view masks them outside development and tests (outbox-messaging.ts).
 */
type Secrets = { secrets?: readonly string[] };

/** A plain-text email. */
export type OutgoingEmail = { to: string; subject: string; text: string } & Secrets;

/** A text message; `to` in E.164 form (+45…). */
export type OutgoingSms = { to: string; text: string } & Secrets;

/**
 * Mail and SMS. The default implementation writes every message to the outbox (`outbox_messages`: with
 * its secrets masked once delivered, readable with `outbox:read:any`); with SMTP configured, email also
 * goes out over SMTP.
 * A call resolves once the message is stored; a failed delivery is recorded on its outbox row.
 */
export type Messaging = {
  sendEmail: (message: OutgoingEmail) => Promise<void>;
  sendSms: (message: OutgoingSms) => Promise<void>;
  /**
   * Whether an SMS reaches a phone: an SMS provider is configured, or (development and tests) the outbox
   * is the developer's phone. False in production without a provider: the calls that send a code refuse.
   */
  smsReachesPhones: boolean;
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

/**
 * What an age-verification provider says about one session. `ageOver18` is known once it has checked;
 * the rest is what the provider told about how (kept on the verification row for support to see).
 */
export type AgeCheckStatus = {
  status: 'pending' | 'passed' | 'failed';
  ageOver18?: boolean;
  /** The provider's own word for the outcome (e.g. Yoti's COMPLETE, FAIL, ERROR, CANCELLED). */
  providerStatus?: string;
  /** The method the provider used (e.g. AGE_ESTIMATION). */
  method?: string;
  /** The age threshold the check was made against (Yoti answers it as `age` for type OVER). */
  threshold?: number;
};

/** The provider's callback, once its signature is verified: which session, and what it says. */
export type AgeProviderCallback = { sessionId: string; result: AgeCheckStatus };

/**
 * The provider could not be reached or answered an error (5xx, a timeout, a refused request): the
 * advertiser is told to try again later (503 `providerUnavailable`).
 */
export class AgeProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgeProviderUnavailableError';
  }
}

/**
 * A hosted age check (spec §7: ageestimation, checksession, yoticallback). `startSession` opens a session
 * for an account and answers the page the browser is sent to (`uri`); the provider sends the browser back
 * to `returnUrl` with `?sessionId=…` and posts a callback to /api/backend/yoticallback, which
 * `verifyCallback` authenticates by the provider's own signature (null: refused). `getResult` asks for
 * the outcome directly (when a callback is late or lost). `test` marks a built-in TEST provider: no real
 * check happens, so its results never verify anyone outside development and tests
 * (docs/decisions/019-test-providers-and-yoti.md). Implementations: adapters/age-verification/.
 */
export type AgeVerificationProvider = {
  /** Stored on each verification row ('test', 'yoti'). */
  name: string;
  test: boolean;
  startSession: (input: { accountId: number; returnUrl: string }) => Promise<{ sessionId: string; uri: string }>;
  getResult: (sessionId: string) => Promise<AgeCheckStatus>;
  verifyCallback: (rawBody: Buffer, headers: Record<string, string | string[] | undefined>) => AgeProviderCallback | null;
};

/** How a buyer pays: card (in the manner of Verotel FlexPay / CardBilling), crypto (Confirmo), phone bill (DIMOCO). */
export type PaymentMethod = 'card' | 'crypto' | 'carrier';

/** What we ask a provider to charge (docs/decisions/025-commerce.md). Amounts in øre, VAT included. */
export type PaymentRequest = {
  /** Our reference, unique per order: 'PAY-…', or 'TEST-PAY-…' from a test provider. */
  reference: string;
  amountOre: number;
  currency: 'DKK';
  description: string;
  /** Card memberships that renew: the period in days after which the provider charges again. */
  recurringDays?: number;
  /** Where the provider sends the buyer back (our callback-payment screen). */
  returnUrl: string;
  /** Where the provider sends the buyer back after a declined payment (card: FlexPay's declineURL). */
  declineUrl: string;
  /** Where the provider sends its postbacks (our API). */
  postbackUrl: string;
  locale: 'da' | 'en';
  /** The buyer's email, for providers that ask (never logged). */
  email?: string;
};

/** How the browser reaches the provider's hosted page: a redirect, or a form to post (carrier billing). */
export type PaymentStart =
  | { kind: 'redirect'; url: string; providerSessionId?: string }
  | { kind: 'form'; action: string; fields: Record<string, string>; providerSessionId?: string };

/**
 * One provider event in our words, once its signature (and, for crypto, the provider's own record) was
 * checked. `eventKey` is unique per provider event: a copy of the same event carries the same key.
 */
export type PaymentEvent = {
  eventKey: string;
  reference: string;
  kind: 'pending' | 'paid' | 'failed' | 'expired' | 'rebill' | 'cancel' | 'subscription-expired' | 'refund' | 'chargeback';
  /** What the provider says was charged (or refunded), in øre; checked against the order. */
  amountOre?: number;
  currency?: string;
  transactionId?: string;
  /** A refund's or chargeback's: the charge it takes back (FlexPay's parentID), the order's transaction. */
  reversesTransactionId?: string;
  /** A card subscription's id (saleID) and its next charge. */
  saleId?: string;
  nextChargeOn?: Date;
  /** The card's masked number as the provider shows it (e.g. 411111XXXXXX1111); never more. */
  truncatedPan?: string;
};

/** A postback as it reached us: parsed by the provider that sent it. */
export type RawPostback = {
  method: 'GET' | 'POST';
  /** The query string without '?'. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received (empty for GET). */
  body: string;
};

/** A postback the provider refused to vouch for: why (stored with the raw postback, nothing changes). */
export type RefusedPostback = { refused: string };

/**
 * A payment provider (adapters/payments/). `test` marks a built-in TEST provider: a hosted page of ours
 * where a person approves, declines or abandons, and signed postbacks like the real one's; its references
 * start 'TEST-PAY-', which never credit anything while a live provider of that method is configured
 * (docs/decisions/019 and 025).
 */
export type PaymentProvider = {
  /** 'cardbilling' | 'confirmo' | 'dimoco' (stored on each order and postback). */
  name: string;
  method: PaymentMethod;
  test: boolean;
  start: (request: PaymentRequest) => Promise<PaymentStart>;
  /** Authenticates and reads a postback; may ask the provider (crypto asks for the invoice first). */
  parsePostback: (postback: RawPostback) => Promise<PaymentEvent | RefusedPostback>;
  /** The answer the provider expects to a postback it may stop sending (card: 'OK'). */
  postbackAnswer: { status: number; contentType: string; body: string };
  /**
   * Where the buyer stops a subscription's next charge (card: the provider's signed cancel page, opened
   * in the buyer's browser); absent for methods without subscriptions. The subscription counts as
   * cancelled only when the provider's cancel postback arrives.
   */
  cancelSubscriptionUrl?: (saleId: string) => string;
};

/** The provider could not be reached or answered an error: the buyer is asked to try again later (503). */
export class PaymentProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderUnavailableError';
  }
}

/**
 * The payment providers the server runs, one per method at most (chosen by config: PAYMENT_CARD, …).
 * `byMethod` serves `buyproduct`; each provider's postback route names its provider itself. A method with
 * no provider is not offered (buyproduct answers 409 `methodUnavailable`).
 */
export type PaymentProviders = {
  byMethod: (method: PaymentMethod) => PaymentProvider | null;
  /** Whether a live (not test) provider of the method is configured: then a 'TEST-PAY-' reference never credits anything. */
  isLive: (method: PaymentMethod) => boolean;
};

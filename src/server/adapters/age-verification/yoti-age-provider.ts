import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { AgeProviderUnavailableError, type AgeCheckStatus, type AgeProviderCallback, type AgeVerificationProvider } from '../types.ts';

/**
 * Yoti's age verification service (AGE_PROVIDER=yoti), age estimation only, from Yoti's published API
 * (developers.yoti.com, "Age verification": create a session, launch the user view, results,
 * notifications; docs/decisions/019-test-providers-and-yoti.md says what was followed):
 *
 * - `POST {YOTI_API_URL}/sessions` with `Authorization: Bearer {YOTI_API_KEY}`, `Yoti-SDK-Id: {YOTI_SDK_ID}`
 *   and `Content-Type: application/json`; body `type: OVER`, `age_estimation {allowed, threshold, level:
 *   PASSIVE}`, the other methods not allowed, `ttl`, `reference_id`, `callback {auto, url}` (Yoti appends
 *   `sessionId` to it), `cancel_url`, `synchronous_checks`, and `notification_url` when a notification key
 *   is configured. Answer `{id, status, expires_at}`.
 * - The user view: `{origin of YOTI_API_URL}/?sessionId={id}&sdkId={YOTI_SDK_ID}`.
 * - `GET {YOTI_API_URL}/sessions/{id}/result` (same headers): `status` PENDING, IN_PROGRESS, COMPLETE,
 *   FAIL, ERROR, CANCELLED (unknown states are read as not passed), `method`, `age` (the threshold for
 *   type OVER).
 * - Notifications (POST to yoticallback): a JSON body carrying `session_key`, `state` (COMPLETE, FAIL,
 *   ERROR), `signature` and `sequence_number`; the signature is RSA-PSS SHA-256 (salt length from the
 *   signature) over the body without `signature` and `sequence_number`, re-serialised without whitespace,
 *   verified with Yoti's published public key (YOTI_PUBLIC_KEY_FILE). Without the key no notification is
 *   asked for and every one is refused; results are then fetched (checksession), as Yoti recommends for
 *   age estimation.
 *
 * Errors (5xx, 4xx, a timeout, no connection) throw AgeProviderUnavailableError: the advertiser is told to
 * try again.
 */

export type YotiOptions = {
  sdkId: string;
  apiKey: string;
  /** e.g. https://age.yoti.com/api/v1 */
  apiUrl: string;
  /** Yoti's notification public key (PEM); without it notifications are neither requested nor accepted. */
  publicKeyPem: string | undefined;
  ageThreshold: number;
  /** Where Yoti posts notifications: {siteUrl}/api/backend/yoticallback. */
  notificationUrl: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Seconds a session is valid (at least 60; default 900). */
  ttlSeconds?: number;
};

type YotiSession = { id?: unknown; status?: unknown };
type YotiResult = { status?: unknown; method?: unknown; age?: unknown };

/** Yoti's words for a session's or notification's outcome, as our result. */
export function yotiStatusToResult(state: string, method: unknown, age: unknown): AgeCheckStatus {
  const details = {
    providerStatus: state,
    ...(typeof method === 'string' ? { method } : {}),
    ...(typeof age === 'number' && Number.isFinite(age) ? { threshold: age } : {}),
  };
  switch (state) {
    case 'PENDING':
    case 'IN_PROGRESS':
      return { status: 'pending', ...details };
    case 'COMPLETE':
      return { status: 'passed', ageOver18: true, ...details };
    case 'FAIL':
      // Not over the threshold (type OVER): for us, not shown to be an adult.
      return { status: 'failed', ageOver18: false, ...details };
    default:
      // ERROR (no face, no result), CANCELLED, EXPIRED and states added later: not passed, not counted as under 18.
      return { status: 'failed', ...details };
  }
}

export function createYotiAgeProvider(options: YotiOptions): AgeVerificationProvider {
  const publicKey: KeyObject | null = options.publicKeyPem ? createPublicKey(options.publicKeyPem) : null;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const viewOrigin = new URL(options.apiUrl).origin;
  const headers = {
    Authorization: `Bearer ${options.apiKey}`,
    'Yoti-SDK-Id': options.sdkId,
    'Content-Type': 'application/json',
    Accept: 'application/json',
  };

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${options.apiUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new AgeProviderUnavailableError(`Yoti did not answer ${method} ${path}`, { cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new AgeProviderUnavailableError(`Yoti answered ${response.status} to ${method} ${path}`);
    }
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw new AgeProviderUnavailableError(`Yoti's answer to ${method} ${path} was not JSON`, { cause: error });
    }
  }

  return {
    name: 'yoti',
    test: false,
    startSession: async ({ accountId, returnUrl }) => {
      const session = await call<YotiSession>('POST', '/sessions', {
        type: 'OVER',
        ttl: options.ttlSeconds ?? 900,
        reference_id: `account-${accountId}`,
        age_estimation: { allowed: true, threshold: options.ageThreshold, level: 'PASSIVE' },
        digital_id: { allowed: false },
        doc_scan: { allowed: false },
        callback: { auto: true, url: returnUrl },
        cancel_url: returnUrl,
        ...(publicKey ? { notification_url: options.notificationUrl } : {}),
        retry_enabled: false,
        resume_enabled: false,
        synchronous_checks: true,
      });
      if (typeof session.id !== 'string' || !/^[\w-]{1,100}$/.test(session.id)) {
        throw new AgeProviderUnavailableError('Yoti answered a session without an id');
      }
      const uri = `${viewOrigin}/?${new URLSearchParams({ sessionId: session.id, sdkId: options.sdkId }).toString()}`;
      return { sessionId: session.id, uri };
    },
    getResult: async (sessionId) => {
      const result = await call<YotiResult>('GET', `/sessions/${encodeURIComponent(sessionId)}/result`);
      return yotiStatusToResult(typeof result.status === 'string' ? result.status : 'UNKNOWN', result.method, result.age);
    },
    verifyCallback: (rawBody) => (publicKey ? verifyNotification(rawBody, publicKey) : null),
  };
}

/** A notification whose signature Yoti's key verifies (as Yoti's "Verifying the Signature" describes), or null. */
export function verifyNotification(rawBody: Buffer, publicKey: KeyObject): AgeProviderCallback | null {
  let data: unknown;
  try {
    data = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { signature, sequence_number: _sequence, ...payload } = data as Record<string, unknown>;
  if (typeof signature !== 'string' || signature.length === 0 || signature.length > 2048) return null;
  const signed = Buffer.from(JSON.stringify(payload).replace(/\s/g, ''), 'utf8');
  let valid: boolean;
  try {
    valid = verify('sha256', signed, { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, Buffer.from(signature, 'base64'));
  } catch {
    return null;
  }
  if (!valid) return null;
  const sessionId = payload['session_key'];
  const state = payload['state'];
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 200 || typeof state !== 'string') return null;
  return { sessionId, result: yotiStatusToResult(state, payload['method'], payload['age']) };
}

/** The signed bytes of a notification (for the local stand-in that signs like Yoti). */
export function notificationSigningInput(notification: Record<string, unknown>): Buffer {
  const { signature: _signature, sequence_number: _sequence, ...payload } = notification;
  return Buffer.from(JSON.stringify(payload).replace(/\s/g, ''), 'utf8');
}

/**
 * SMS through GatewayAPI (a Danish provider, docs/decisions/039-sms-gatewayapi.md), on its published REST
 * API (https://gatewayapi.com/docs/apis/rest/, and its documentation repository onlinecity/gatewayapi-docs):
 * - `POST {GATEWAYAPI_URL}/rest/mtsms` with `Authorization: Token <token>` and the JSON
 *   `{ sender, message, userref, callback_url?, recipients: [{ msisdn }] }`; 200 answers `{ ids: [id], usage }`,
 *   an error answers 4xx/5xx with `{ code?, incident_uuid, message, variables? }`.
 * - Delivery Status Notifications: a POST of `{ id, msisdn, time, status, error, code, userref, … }` with the
 *   same fields in an HS256 JWT in `X-Gwapi-Signature`, signed with the secret chosen for the webhook. Only
 *   the verified token is read; a missing or wrong token is refused.
 */
import { errors as joseErrors, jwtVerify } from 'jose';
import * as v from 'valibot';
import type { OutgoingSms } from '../types.ts';

/** Where this server takes GatewayAPI's delivery reports (api/sms-reports.ts). */
export const SMS_REPORTS_PATH = '/api/sms/gatewayapi';

/** The EU platform's base address (accounts on gatewayapi.com use `https://gatewayapi.com`). */
export const GATEWAYAPI_EU_URL = 'https://gatewayapi.eu';

export type GatewayApiOptions = {
  /** The base address (GATEWAYAPI_URL); the adapter posts to `{url}/rest/mtsms`. */
  url: string;
  /** The API token (GATEWAYAPI_TOKEN). */
  token: string;
  /** What the phone shows as the sender: up to 11 letters and digits, or up to 15 digits (SMS_SENDER). */
  sender: string;
  /**
   * The webhook's secret (GATEWAYAPI_WEBHOOK_SECRET): with it, each message asks for its delivery reports at
   * `{siteUrl}{SMS_REPORTS_PATH}`, where only reports signed with it are taken; without it, none are asked for.
   */
  webhookSecret?: string | undefined;
  /** The site's public address (SITE_URL), which the provider reaches. */
  siteUrl?: string | undefined;
  /** How long one send may take before it counts as failed (and is tried again later). */
  timeoutMs?: number;
  fetch?: typeof fetch;
};

/** Something that sends an SMS for real; throws when the provider refuses or cannot be reached. */
export type SmsDelivery = {
  /** Sends it; `reference` comes back in the delivery reports (the outbox row's id). Answers the provider's message id. */
  deliver: (message: Pick<OutgoingSms, 'to' | 'text'>, reference: string) => Promise<{ providerId: string }>;
};

/** The sender GatewayAPI accepts: up to 11 letters and digits (and spaces), or up to 15 digits. */
export const SMS_SENDER_PATTERN = /^(?:[A-Za-z0-9 ]{1,11}|\+?[0-9]{1,15})$/;

/** `+4512345678` (as the domain writes a phone number) → 4512345678, the MSISDN GatewayAPI reads. */
export function msisdnOf(phone: string): number {
  const digits = phone.replace(/^\+/, '').replace(/[\s-]/g, '');
  if (!/^[1-9][0-9]{6,14}$/.test(digits)) throw new Error('not an international phone number');
  return Number(digits);
}

/** A provider's refusal, with what the provider said (never the message text or the phone number). */
export class SmsProviderError extends Error {
  readonly status: number;
  readonly providerCode: string | null;
  constructor(status: number, providerCode: string | null, message: string) {
    super(message);
    this.name = 'SmsProviderError';
    this.status = status;
    this.providerCode = providerCode;
  }
}

const ErrorAnswer = v.object({ code: v.optional(v.string()), message: v.optional(v.string()), incident_uuid: v.optional(v.string()) });
const SentAnswer = v.object({ ids: v.pipe(v.array(v.union([v.number(), v.string()])), v.minLength(1)) });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function createGatewayApiSms(options: GatewayApiOptions): SmsDelivery {
  const endpoint = `${options.url.replace(/\/+$/, '')}/rest/mtsms`;
  const callbackUrl = options.webhookSecret && options.siteUrl ? `${options.siteUrl.replace(/\/+$/, '')}${SMS_REPORTS_PATH}` : undefined;
  const doFetch = options.fetch ?? fetch;
  return {
    async deliver(message, reference) {
      const body = {
        sender: options.sender,
        message: message.text,
        userref: reference,
        ...(callbackUrl ? { callback_url: callbackUrl } : {}),
        recipients: [{ msisdn: msisdnOf(message.to) }],
      };
      const response = await doFetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Token ${options.token}`, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
      const text = await response.text();
      const json = parseJson(text);
      if (!response.ok) {
        const said = v.safeParse(ErrorAnswer, json);
        const code = said.success ? (said.output.code ?? null) : null;
        const what = said.success && said.output.message ? said.output.message.slice(0, 200) : `HTTP ${response.status}`;
        throw new SmsProviderError(response.status, code, `GatewayAPI refused the SMS (${response.status}${code ? ` ${code}` : ''}): ${what}`);
      }
      const sent = v.safeParse(SentAnswer, json);
      if (!sent.success) throw new SmsProviderError(response.status, null, 'GatewayAPI answered without a message id');
      return { providerId: String(sent.output.ids[0]) };
    },
  };
}

/** The states a message can reach (GatewayAPI's "States and status codes"); the final ones end its reports. */
export const SMS_FINAL_STATES = new Set(['DELIVERED', 'EXPIRED', 'DELETED', 'UNDELIVERABLE', 'ACCEPTED', 'REJECTED', 'SKIPPED']);
const SMS_STATES = new Set([...SMS_FINAL_STATES, 'UNKNOWN', 'SCHEDULED', 'BUFFERED', 'ENROUTE']);

export type DeliveryReport = {
  providerId: string;
  status: string;
  /** The `userref` sent with the message: our outbox row's id. */
  reference: string | null;
  /** When the state was reached (the report's `time`). */
  at: Date;
  /** The provider's error text and code, when the report has them. */
  error: string | null;
  /** A final state: no report after it changes the message (GatewayAPI's "States and status codes"). */
  final: boolean;
  /** The message did not reach the phone (EXPIRED, DELETED, UNDELIVERABLE, REJECTED, SKIPPED). */
  failed: boolean;
};

/** Final states in which the phone got the message (or the network took it on its behalf). */
const SMS_DELIVERED_STATES = new Set(['DELIVERED', 'ACCEPTED']);

const ReportClaims = v.object({
  id: v.union([v.number(), v.string()]),
  status: v.picklist([...SMS_STATES]),
  time: v.optional(v.nullable(v.number())),
  userref: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  error: v.optional(v.nullable(v.string())),
  code: v.optional(v.nullable(v.union([v.string(), v.number()]))),
});

/**
 * Reads a delivery report from its `X-Gwapi-Signature` token: verified with the webhook's secret (HS256
 * only), then its claims read. Null when the token is missing, forged, or not a report.
 */
export async function readDeliveryReport(token: string | undefined, secret: string): Promise<DeliveryReport | null> {
  if (!token || secret.length === 0) return null;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
    const claims = v.safeParse(ReportClaims, payload);
    if (!claims.success) return null;
    const { id, status, time, userref, error, code } = claims.output;
    return {
      providerId: String(id),
      status,
      reference: userref === undefined || userref === null ? null : String(userref),
      at: typeof time === 'number' ? new Date(time * 1000) : new Date(),
      error: error || code ? [code, error].filter(Boolean).join(' ').slice(0, 200) : null,
      final: SMS_FINAL_STATES.has(status),
      failed: SMS_FINAL_STATES.has(status) && !SMS_DELIVERED_STATES.has(status),
    };
  } catch (failure) {
    if (failure instanceof joseErrors.JOSEError) return null;
    throw failure;
  }
}

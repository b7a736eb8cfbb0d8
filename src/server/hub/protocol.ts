/**
 * The SignalR JSON hub protocol, the part our hub speaks (docs/decisions/013): records are JSON texts each
 * ended by the record separator 0x1E ("TransportProtocols", text transfer format). The first record from
 * the client is the handshake request `{"protocol":"json","version":1}`, answered by `{}` (or
 * `{"error":"…"}` before closing). After it, messages carry a numeric `type` ("SignalR Hub Protocol"):
 * 1 Invocation, 2 StreamItem, 3 Completion, 4 StreamInvocation, 5 CancelInvocation, 6 Ping, 7 Close,
 * 8 Ack and 9 Sequence (stateful reconnect, which we never offer).
 */
import { StringDecoder } from 'node:string_decoder';

export const RECORD_SEPARATOR = '\u001e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

export const SUPPORTED_PROTOCOL = 'json';
export const SUPPORTED_VERSION = 1;

/** One record on the wire: the JSON text followed by the separator. */
export function formatRecord(message: unknown): string {
  return `${JSON.stringify(message)}${RECORD_SEPARATOR}`;
}

export const HANDSHAKE_OK = formatRecord({});
export const PING_RECORD = formatRecord({ type: MessageType.Ping });

/**
 * Collects the records of one connection across WebSocket messages: a message may hold several records,
 * and a record may be split over several messages (also inside a multi-byte character, for binary
 * frames). Refuses to buffer more than `maxBufferedChars` of an unfinished record.
 */
export class RecordReader {
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';
  readonly #maxBufferedChars: number;

  constructor(maxBufferedChars: number) {
    this.#maxBufferedChars = maxBufferedChars;
  }

  /** The complete records (without separators) the chunk finishes; throws when the buffer overflows. */
  push(chunk: Buffer | string): string[] {
    const text = this.#pending + (typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
    const parts = text.split(RECORD_SEPARATOR);
    this.#pending = parts.pop() ?? '';
    if (this.#pending.length > this.#maxBufferedChars) throw new Error('record too long');
    return parts;
  }
}

export type HandshakeResult = { ok: true } | { ok: false; error: string };

/** Checks a handshake request record; the error texts are those ASP.NET Core's server sends. */
export function checkHandshake(record: string): HandshakeResult {
  let request: unknown;
  try {
    request = JSON.parse(record);
  } catch {
    return { ok: false, error: 'The handshake request is not valid JSON.' };
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return { ok: false, error: 'The handshake request is not valid.' };
  }
  const { protocol, version } = request as { protocol?: unknown; version?: unknown };
  if (typeof protocol !== 'string' || typeof version !== 'number') {
    return { ok: false, error: 'The handshake request needs a protocol and a version.' };
  }
  if (protocol !== SUPPORTED_PROTOCOL) return { ok: false, error: `The protocol '${protocol}' is not supported.` };
  if (version !== SUPPORTED_VERSION) {
    return { ok: false, error: `The server does not support version ${version} of the '${protocol}' protocol.` };
  }
  return { ok: true };
}

/** A hub message after the handshake: an object with a numeric type, or null when it is not one. */
export type HubMessage = { type: number; invocationId?: unknown; target?: unknown } & Record<string, unknown>;

export function parseMessage(record: string): HubMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(record);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  if (typeof (message as { type?: unknown }).type !== 'number') return null;
  return message as HubMessage;
}

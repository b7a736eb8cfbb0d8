/**
 * The Confirmo adapter's pure parts (src/server/adapters/payments/confirmo.ts, docs/payments/confirmo.md):
 * amounts as Confirmo's API writes them (a JSON number in a new invoice's `invoice.amount`, a decimal string
 * in the invoice model's `merchantAmount.amount`) read to exact øre, the BP-Signature, and a notification read
 * against the invoice read back.
 */
import { describe, expect, it } from 'vitest';
import {
  confirmoAmount,
  confirmoDecimal,
  confirmoSignature,
  createConfirmoProvider,
  oreOfConfirmoAmount,
  parseConfirmoJson,
  parseConfirmoPostback,
  readConfirmoInvoice,
  type ConfirmoInvoice,
} from '#server/adapters/payments/confirmo.ts';
import type { RawPostback } from '#server/adapters/types.ts';

describe('Confirmo amounts', () => {
  it('reads numbers and decimal strings to exact øre', () => {
    expect(oreOfConfirmoAmount(1199)).toBe(119_900);
    expect(oreOfConfirmoAmount('1199')).toBe(119_900);
    expect(oreOfConfirmoAmount(1199.5)).toBe(119_950);
    expect(oreOfConfirmoAmount(19.99)).toBe(1_999);
    expect(oreOfConfirmoAmount('19.99')).toBe(1_999);
    expect(oreOfConfirmoAmount(0.01)).toBe(1);
    expect(oreOfConfirmoAmount('0.01')).toBe(1);
    expect(oreOfConfirmoAmount(0.1)).toBe(10);
    expect(oreOfConfirmoAmount(499)).toBe(49_900);
    expect(oreOfConfirmoAmount('499.00')).toBe(49_900);
    // Confirmo's examples write the model's amount without trailing zeros ("100"); extra zeros are the same amount.
    expect(oreOfConfirmoAmount('100')).toBe(10_000);
    expect(oreOfConfirmoAmount('499.000')).toBe(49_900);
    expect(oreOfConfirmoAmount(0)).toBe(0);
  });

  it('refuses what is not an exact amount in øre', () => {
    // 0.1 + 0.2 is 0.30000000000000004: not an amount in øre.
    expect(oreOfConfirmoAmount(0.1 + 0.2)).toBeNull();
    expect(oreOfConfirmoAmount(19.999)).toBeNull();
    expect(oreOfConfirmoAmount('19.999')).toBeNull();
    expect(oreOfConfirmoAmount('0.001')).toBeNull();
    expect(oreOfConfirmoAmount(-5)).toBeNull();
    expect(oreOfConfirmoAmount('-5.00')).toBeNull();
    expect(oreOfConfirmoAmount('1e3')).toBeNull();
    expect(oreOfConfirmoAmount(1e21)).toBeNull();
    expect(oreOfConfirmoAmount(Number.NaN)).toBeNull();
    expect(oreOfConfirmoAmount(Number.POSITIVE_INFINITY)).toBeNull();
    expect(oreOfConfirmoAmount('')).toBeNull();
    expect(oreOfConfirmoAmount(' 19.99')).toBeNull();
    expect(oreOfConfirmoAmount('19,99')).toBeNull();
    expect(oreOfConfirmoAmount('19.')).toBeNull();
    expect(oreOfConfirmoAmount('.5')).toBeNull();
    expect(oreOfConfirmoAmount('1234567890')).toBeNull();
    expect(oreOfConfirmoAmount(null)).toBeNull();
    expect(oreOfConfirmoAmount(undefined)).toBeNull();
    expect(oreOfConfirmoAmount({ amount: 1 })).toBeNull();
    expect(oreOfConfirmoAmount(true)).toBeNull();
  });

  it('reads a JSON number from the text it was sent as, never through a float', () => {
    const read = (json: string) => oreOfConfirmoAmount((parseConfirmoJson(json) as { amount: unknown }).amount);
    expect(read('{"amount":19.99}')).toBe(1_999);
    expect(read('{"amount":499.00}')).toBe(49_900);
    expect(read('{"amount":0.10}')).toBe(10);
    expect(read('{"amount":"19.99"}')).toBe(1_999);
    expect(read('{"amount":19.990}')).toBe(1_999);
    // The same double as 19.99, but not what an amount in øre is written as.
    expect(read('{"amount":19.990000000000001}')).toBeNull();
    expect(read('{"amount":1e2}')).toBeNull();
    // Other numbers are left as they are.
    expect(parseConfirmoJson('{"createdAt":1509525927,"merchantAmount":{"amount":"1","currency":"CZK"}}')).toEqual({
      createdAt: 1_509_525_927,
      merchantAmount: { amount: '1', currency: 'CZK' },
    });
  });

  it('writes a new invoice`s amount as a number and the model`s as Confirmo`s examples do', () => {
    expect(confirmoAmount(49_900)).toBe(499);
    expect(JSON.stringify({ amount: confirmoAmount(1_999) })).toBe('{"amount":19.99}');
    expect(JSON.stringify({ amount: confirmoAmount(1) })).toBe('{"amount":0.01}');
    expect(JSON.stringify({ amount: confirmoAmount(119_950) })).toBe('{"amount":1199.5}');
    for (const ore of [1, 10, 99, 1_999, 49_900, 119_950, 123_456_789]) expect(oreOfConfirmoAmount(confirmoAmount(ore))).toBe(ore);
    expect(() => confirmoAmount(1.5)).toThrow(RangeError);
    expect(() => confirmoAmount(-1)).toThrow(RangeError);
    expect(confirmoDecimal(10_000)).toBe('100');
    expect(confirmoDecimal(1_990)).toBe('19.9');
    expect(confirmoDecimal(1_999)).toBe('19.99');
    expect(confirmoDecimal(5)).toBe('0.05');
  });
});

describe('the BP-Signature', () => {
  // https://docs.confirmo.net/reference/notifications: sha256 of the payload with the callback password
  // appended, hex. Checked against SHA-256's published test vectors (FIPS 180-2): "abc" and the 448-bit one.
  it('is sha256(body + callback password), lowercase hex', () => {
    expect(confirmoSignature('ab', 'c')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(confirmoSignature('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnop', 'q')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });
});

describe('a Confirmo notification', () => {
  const PASSWORD = 'azLlmIpWHM9NJbMe';
  const invoice = (patch: Record<string, unknown> = {}) => ({
    id: 'inv57dkwrrdw',
    status: 'paid',
    reference: 'PAY-ABC',
    merchantAmount: { amount: '499', currency: 'DKK' },
    url: 'https://confirmo.net/public/invoice/inv57dkwrrdw',
    ...patch,
  });
  const readBack = (value: Record<string, unknown>) => async () => readConfirmoInvoice(value) as ConfirmoInvoice | null;
  const postback = (body: string, signature = confirmoSignature(body, PASSWORD)): RawPostback => ({ method: 'POST', query: '', headers: { 'bp-signature': signature }, body });

  it('is the invoice read back, in our words', async () => {
    const body = JSON.stringify(invoice());
    expect(await parseConfirmoPostback(postback(body), { callbackPassword: PASSWORD, readInvoice: readBack(invoice()) })).toEqual({
      eventKey: 'inv57dkwrrdw:paid',
      reference: 'PAY-ABC',
      kind: 'paid',
      amountOre: 49_900,
      currency: 'DKK',
      transactionId: 'inv57dkwrrdw',
    });
    // An amount written as a number (here in the notification, as a string in the invoice read back) is the same amount.
    const numeric = JSON.stringify(invoice({ merchantAmount: { amount: 499.0, currency: 'DKK' } })).replace('"amount":499', '"amount":499.00');
    expect(await parseConfirmoPostback(postback(numeric), { callbackPassword: PASSWORD, readInvoice: readBack(invoice()) })).toMatchObject({ kind: 'paid', amountOre: 49_900 });
    // An earlier status than the invoice now has is read as the invoice's (a copy of its event).
    const earlier = JSON.stringify(invoice({ status: 'confirming' }));
    expect(await parseConfirmoPostback(postback(earlier), { callbackPassword: PASSWORD, readInvoice: readBack(invoice()) })).toMatchObject({ eventKey: 'inv57dkwrrdw:paid' });
    const verification = JSON.stringify(invoice({ status: 'pending_verification' }));
    expect(await parseConfirmoPostback(postback(verification), { callbackPassword: PASSWORD, readInvoice: readBack(invoice({ status: 'pending_verification' })) })).toMatchObject({
      eventKey: 'inv57dkwrrdw:pending_verification',
      kind: 'pending',
    });
  });

  it('is refused when tampered with or not borne out by the invoice read back', async () => {
    const body = JSON.stringify(invoice());
    const parse = (given: RawPostback, back: Record<string, unknown> | null = invoice()) =>
      parseConfirmoPostback(given, { callbackPassword: PASSWORD, readInvoice: async () => (back ? readConfirmoInvoice(back) : null) });
    expect(await parse(postback(body, confirmoSignature(body, 'another password')))).toEqual({ refused: 'bad signature' });
    expect(await parse(postback(body.replace('499', '1'), confirmoSignature(body, PASSWORD)))).toEqual({ refused: 'bad signature' });
    expect(await parse({ ...postback(body), headers: {} })).toEqual({ refused: 'bad signature' });
    expect(await parse({ ...postback(body), method: 'GET' })).toEqual({ refused: 'not a POST notification' });
    expect(await parse(postback('not json'))).toEqual({ refused: 'not an invoice' });
    expect(await parse(postback(JSON.stringify(invoice({ merchantAmount: { amount: '4.999', currency: 'DKK' } }))))).toEqual({ refused: 'unreadable amount' });
    expect(await parse(postback(body), invoice({ status: 'confirming' }))).toEqual({ refused: 'the notification says paid, the invoice read back confirming' });
    expect(await parse(postback(JSON.stringify(invoice({ status: 'expired' }))), invoice({ status: 'error' }))).toEqual({ refused: 'the notification says expired, the invoice read back error' });
    expect(await parse(postback(body), invoice({ merchantAmount: { amount: '1', currency: 'DKK' } }))).toEqual({ refused: 'the invoice read back has another amount' });
    expect(await parse(postback(body), invoice({ merchantAmount: { amount: '499', currency: 'EUR' } }))).toEqual({ refused: 'the invoice read back has another amount' });
    expect(await parse(postback(body), invoice({ reference: 'PAY-OTHER' }))).toEqual({ refused: 'the invoice read back names another reference' });
    expect(await parse(postback(body), null)).toEqual({ refused: 'the provider knows no such invoice' });
    expect(
      await parseConfirmoPostback(postback(body), {
        callbackPassword: PASSWORD,
        readInvoice: async () => {
          throw new Error('timeout');
        },
      }),
    ).toEqual({ refused: 'the invoice could not be read back (timeout)' });
  });
});

describe('a new invoice', () => {
  const request = { reference: 'PAY-ABC', amountOre: 1_999, currency: 'DKK' as const, description: 'Annonce i 30 dage', returnUrl: 'https://example.dk/backend/callback-payment/', declineUrl: 'https://example.dk/backend/callback-payment/?declined=1', postbackUrl: 'https://example.dk/api/backend/confirmopostback', locale: 'da' as const };

  it('is asked for in Confirmo`s request format: the amount a JSON number, no currencyTo, our reference and URLs', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const answer = JSON.stringify({ id: 'invSZfmkLxTc9xv', status: 'prepared', merchantAmount: { amount: '19.99', currency: 'DKK' }, url: 'https://confirmo.net/public/invoice/invSZfmkLxTc9xv' });
    const provider = createConfirmoProvider({
      apiKey: 'the-key',
      callbackPassword: 'the-callback-password',
      url: 'https://confirmo.net/',
      fetch: async (url, init) => {
        sent.push({ url: String(url), init: init! });
        return new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    expect(provider.test).toBe(false);
    expect(await provider.start(request)).toEqual({ kind: 'redirect', url: 'https://confirmo.net/public/invoice/invSZfmkLxTc9xv', providerSessionId: 'invSZfmkLxTc9xv' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('https://confirmo.net/api/v3/invoices');
    expect(sent[0]!.init.method).toBe('POST');
    expect((sent[0]!.init.headers as Record<string, string>)['authorization']).toBe('Bearer the-key');
    const body = String(sent[0]!.init.body);
    expect(body).toContain('"invoice":{"currencyFrom":"DKK","amount":19.99}');
    expect(JSON.parse(body)).toEqual({
      settlement: { currency: 'DKK' },
      invoice: { currencyFrom: 'DKK', amount: 19.99 },
      product: { name: 'Annonce i 30 dage' },
      reference: 'PAY-ABC',
      returnUrl: 'https://example.dk/backend/callback-payment/?type=crypto&referenceID=PAY-ABC',
      notifyUrl: 'https://example.dk/api/backend/confirmopostback',
    });
  });

  it('without an invoice page in the answer is the provider unavailable (the buyer is asked to try later)', async () => {
    const answering = (status: number, body: string) =>
      createConfirmoProvider({ apiKey: 'k', callbackPassword: 'p', url: 'https://confirmo.net', fetch: async () => new Response(body, { status }) });
    await expect(answering(200, '{"id":"inv1","status":"prepared"}').start(request)).rejects.toThrow('without an invoice id and url');
    await expect(answering(200, 'not json').start(request)).rejects.toThrow('without an invoice id and url');
    await expect(answering(400, '{"message":"invalid"}').start(request)).rejects.toThrow('answered 400');
  });
});

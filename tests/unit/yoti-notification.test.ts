import { constants, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { notificationSigningInput, verifyNotification, yotiStatusToResult } from '#server/adapters/age-verification/yoti-age-provider.ts';

/** Yoti's notification signature as its "Verifying the Signature" section describes it (RSA-PSS, SHA-256). */
describe('Yoti notifications', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const payload = { method: 'AGE_ESTIMATION', age: 25, session_key: 'f0e1d2c3-0000-4000-8000-000000000001', reference_id: 'account 7', state: 'COMPLETE' };
  const signed = (body: Record<string, unknown>, saltLength = constants.RSA_PSS_SALTLEN_MAX_SIGN) =>
    sign('sha256', notificationSigningInput(body), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }).toString('base64');

  it('verifies the body without signature and sequence_number, whitespace removed, whatever the salt length', () => {
    for (const saltLength of [constants.RSA_PSS_SALTLEN_DIGEST, constants.RSA_PSS_SALTLEN_MAX_SIGN]) {
      const body = Buffer.from(JSON.stringify({ ...payload, sequence_number: 3, signature: signed(payload, saltLength) }, null, 2));
      expect(verifyNotification(body, publicKey)).toEqual({
        sessionId: payload.session_key,
        result: { status: 'passed', ageOver18: true, providerStatus: 'COMPLETE', method: 'AGE_ESTIMATION', threshold: 25 },
      });
    }
  });

  it('refuses a changed, unsigned, wrongly signed or malformed notification', () => {
    const signature = signed(payload);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const foreign = sign('sha256', notificationSigningInput(payload), { key: other, padding: constants.RSA_PKCS1_PSS_PADDING }).toString('base64');
    for (const body of [
      { ...payload, state: 'FAIL', signature },
      { ...payload, session_key: 'another', signature },
      { ...payload },
      { ...payload, signature: '' },
      { ...payload, signature: foreign },
      { ...payload, signature: 'not base64 at all ###' },
    ]) {
      expect(verifyNotification(Buffer.from(JSON.stringify(body)), publicKey)).toBeNull();
    }
    expect(verifyNotification(Buffer.from('not json'), publicKey)).toBeNull();
    expect(verifyNotification(Buffer.from('[1,2]'), publicKey)).toBeNull();
  });

  it('reads Yoti states: COMPLETE passes, FAIL is below the threshold, anything else is not passed and not counted', () => {
    expect(yotiStatusToResult('PENDING', undefined, undefined).status).toBe('pending');
    expect(yotiStatusToResult('IN_PROGRESS', undefined, undefined).status).toBe('pending');
    expect(yotiStatusToResult('FAIL', 'AGE_ESTIMATION', 25)).toEqual({ status: 'failed', ageOver18: false, providerStatus: 'FAIL', method: 'AGE_ESTIMATION', threshold: 25 });
    for (const state of ['ERROR', 'CANCELLED', 'EXPIRED', 'SOMETHING_NEW']) {
      expect(yotiStatusToResult(state, undefined, undefined)).toEqual({ status: 'failed', providerStatus: state });
    }
  });
});

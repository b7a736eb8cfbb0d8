import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  ChangePasswordSchema,
  CodeVerificationSchema,
  EmailVerificationSchema,
  UpdatePasswordSchema,
  ageOn,
} from '#lib/schemas/account.ts';
import { parseDay } from '#lib/format.ts';
import { normaliseDanishPhone } from '#lib/schemas/advert-edit.ts';
import { isCommonPassword } from '#server/domain/accounts/password-policy.ts';
import { hashSmsCode, newLinkToken, newSmsCode } from '#server/domain/accounts/tokens.ts';

const messages = (result: { issues?: { message: string; path?: { key: unknown }[] }[] | undefined }) =>
  (result.issues ?? []).map((issue) => `${issue.path?.map((p) => String(p.key)).join('.')}:${issue.message}`);

describe('Danish phone numbers', () => {
  it('keeps the 8 digits of the ways people type them', () => {
    for (const typed of ['20304050', '20 30 40 50', '+45 20 30 40 50', '+4520304050', '004520304050', '2030-4050', '(+45) 2030 4050']) {
      expect(normaliseDanishPhone(typed), typed).toBe('20304050');
    }
    // Anything else is not a Danish number.
    expect(normaliseDanishPhone('123')).toBeNull();
    expect(normaliseDanishPhone('+46 20304050')).toBeNull();
    expect(normaliseDanishPhone('10304050')).toBeNull();
  });
});

describe('dates of birth', () => {
  it('reads dd-MM-yyyy and ISO dates, and refuses impossible ones', () => {
    expect(parseDay('15-04-1995')).toBe('1995-04-15');
    expect(parseDay('5/4/1995')).toBe('1995-04-05');
    expect(parseDay('1995-04-15')).toBe('1995-04-15');
    expect(parseDay('1995-04-15T00:00:00.000Z')).toBe('1995-04-15');
    expect(parseDay('29-02-1996')).toBe('1996-02-29');
    expect(parseDay('29-02-1995')).toBeNull();
    expect(parseDay('31-04-1995')).toBeNull();
    expect(parseDay('1995/04/15')).toBeNull();
    expect(parseDay('yesterday')).toBeNull();
  });

  it('counts whole years on the Copenhagen calendar day', () => {
    expect(ageOn('2008-06-01', new Date('2026-05-31T12:00:00Z'))).toBe(17);
    expect(ageOn('2008-06-01', new Date('2026-06-01T12:00:00Z'))).toBe(18);
    // 23:30 UTC on 31 May is already 1 June in Copenhagen.
    expect(ageOn('2008-06-01', new Date('2026-05-31T23:30:00Z'))).toBe(18);
  });
});

describe('account schemas', () => {
  it('changepassword turns spaces in the token back into plus signs', () => {
    const result = v.safeParse(ChangePasswordSchema, { Token: 'ab cd ef', Id: '12', Password: 'long enough password' });
    expect(result.success && result.output).toEqual({ Token: 'ab+cd+ef', Id: 12, Password: 'long enough password' });
  });

  it('codeverification wants six digits and an id', () => {
    expect(messages(v.safeParse(CodeVerificationSchema, { Code: '12345', Id: 'x' }))).toEqual(['Code:code', 'Id:required']);
    expect(v.safeParse(CodeVerificationSchema, { Code: ' 012345 ', Id: 7 }).output).toEqual({ Code: '012345', Id: 7 });
  });

  it('emailverification takes the token, or the link that carries it', () => {
    const token = newLinkToken().token;
    expect(v.parse(EmailVerificationSchema, { Url: token })).toEqual({ Url: token });
    expect(v.parse(EmailVerificationSchema, { Url: `https://example.dk/backend/basic/?url=${token}` })).toEqual({ Url: token });
    expect(messages(v.safeParse(EmailVerificationSchema, { Url: 'nope' }))).toEqual(['Url:linkInvalid']);
  });

  it('updatepassword wants a new password different from the current one', () => {
    expect(messages(v.safeParse(UpdatePasswordSchema, { Password: 'same password 1', NewPassword: 'same password 1' }))).toEqual([
      'NewPassword:samePassword',
    ]);
    expect(messages(v.safeParse(UpdatePasswordSchema, { Password: 'x', NewPassword: 'short' }))).toEqual(['NewPassword:passwordLength']);
  });
});

describe('passwords, codes and tokens', () => {
  it('knows the common passwords in any case, and not a good one', () => {
    expect(isCommonPassword('123456')).toBe(true);
    expect(isCommonPassword('Password123')).toBe(true);
    expect(isCommonPassword('qwertyuiop')).toBe(true);
    expect(isCommonPassword('adgangskode123')).toBe(true);
    expect(isCommonPassword('a quiet harbour at dawn 42')).toBe(false);
  });

  it('makes 6-digit codes, random link tokens, and code hashes bound to the account', () => {
    for (let n = 0; n < 50; n += 1) expect(newSmsCode()).toMatch(/^\d{6}$/);
    const a = newLinkToken();
    expect(a.token).toMatch(/^[\w-]{43}$/);
    expect(a.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(newLinkToken().token).not.toBe(a.token);
    expect(hashSmsCode(1, '123456')).not.toBe(hashSmsCode(2, '123456'));
  });
});

/**
 * Issue 15, item 6: the log's redaction rules (src/server/logger.ts). Every query parameter of the product
 * that carries a token, a code, a session or personal data is redacted from logged URLs, in any letter case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOGGED_QUERY_PARAMETERS, REDACTED, TOKEN_QUERY_PARAMETERS, loggableUrl, serializeError } from '#server/logger.ts';

/** Names of parameters that carry a secret or personal data (matched against every schema field). */
const SECRET_OR_PERSONAL = /token|code|url|handoff|session|secret|password|signature|key|email|phone|name|text|to$|from$|note|body|description|website|birth/i;

describe('loggableUrl', () => {
  it('redacts every token parameter, in any letter case', () => {
    for (const name of TOKEN_QUERY_PARAMETERS) {
      for (const spelled of [name, name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1)]) {
        const logged = loggableUrl(`/some/path/?${spelled}=s3cret-Value_123&Take=5`);
        expect(logged).toBe(`/some/path/?${spelled}=${REDACTED}&Take=5`);
      }
    }
  });

  it('never lets a token parameter be on the list of logged parameters', () => {
    for (const name of TOKEN_QUERY_PARAMETERS) expect(LOGGED_QUERY_PARAMETERS.has(name)).toBe(false);
  });

  it('logs no schema field that carries a secret or personal data', () => {
    // Every input field name of every call (src/lib/schemas): none that looks like a secret or personal
    // data may be logged; a new one is redacted unless someone adds it to the list on purpose.
    const dir = path.resolve('src/lib/schemas');
    const names = new Set<string>();
    for (const file of readdirSync(dir)) {
      for (const match of readFileSync(path.join(dir, file), 'utf8').matchAll(/[{,\s]([A-Za-z]+): /g)) names.add(match[1]!);
    }
    const risky = [...names].filter((name) => SECRET_OR_PERSONAL.test(name));
    expect(risky).toEqual(expect.arrayContaining(['Url', 'Token', 'Code', 'Handoff', 'SessionId', 'Email', 'Phone', 'Name', 'To']));
    for (const name of risky) {
      expect(LOGGED_QUERY_PARAMETERS.has(name.toLowerCase()), name).toBe(false);
      expect(loggableUrl(`/api/x?${name}=v@l%2Bue`), name).toBe(`/api/x?${name}=${REDACTED}`);
    }
  });

  it('keeps the path and harmless parameters, redacts unknown ones and secret path segments', () => {
    expect(loggableUrl('/api/frontend/fullprofiles?AfterId=10&Locales=da,en')).toBe('/api/frontend/fullprofiles?AfterId=10&Locales=da,en');
    expect(loggableUrl('/api/frontend/x?Whatever=hello')).toBe(`/api/frontend/x?Whatever=${REDACTED}`);
    expect(loggableUrl('/api/frontend/x?a%40b.dk')).toBe(`/api/frontend/x?${REDACTED}`);
    expect(loggableUrl('/test-age-provider/abcDEF123?x=1')).toBe(`/test-age-provider/${REDACTED}?x=${REDACTED}`);
    expect(loggableUrl('/test-payments/card/testcard-abc123/sale')).toBe(`/test-payments/card/${REDACTED}/sale`);
    expect(loggableUrl('/api/backend/cardbillingpostback?saleID=123&type=purchase&referenceID=PAY-X&transactionID=9&truncatedPAN=411111XXXXXX1111&signature=ab')).toBe(
      `/api/backend/cardbillingpostback?saleID=${REDACTED}&type=purchase&referenceID=${REDACTED}&transactionID=${REDACTED}&truncatedPAN=${REDACTED}&signature=${REDACTED}`,
    );
    expect(loggableUrl('/search/29384756/')).toBe(`/search/${REDACTED}/`);
    expect(loggableUrl('/en/search/jane@example.dk/')).toBe(`/en/search/${REDACTED}/`);
    expect(loggableUrl('/annonce/sofie-1234/')).toBe('/annonce/sofie-1234/');
  });
});

describe('serializeError', () => {
  it('drops the parameters of a failed query from the message, the stack and the fields', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "accounts_email_unique"'), {
      code: '23505',
      detail: 'Key (email)=(jane@example.dk) already exists.',
      params: ['jane@example.dk', '29384756'],
      query: 'insert into accounts (email, phone) values ($1, $2)',
    });
    const error = Object.assign(new Error('Failed query: insert into accounts (email, phone) values ($1, $2)\nparams: jane@example.dk,29384756\nline two'), {
      query: 'insert into accounts (email, phone) values ($1, $2)',
      params: ['jane@example.dk', '29384756\nline two'],
      cause,
    });
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain('jane@example.dk');
    expect(logged).not.toContain('29384756');
    expect(logged).toContain('accounts_email_unique');
    expect(logged).toContain('values ($1, $2)');
    expect(logged).toContain('23505');
  });

  it('drops the value PostgreSQL quotes in an invalid-input message', () => {
    const logged = JSON.stringify(serializeError(new Error('invalid input syntax for type integer: "jane@example.dk"')));
    expect(logged).not.toContain('jane@example.dk');
    expect(logged).toContain('invalid input syntax for type integer');
  });

  it('drops emails and phone numbers a mail server or driver quotes in its error', () => {
    const smtp = Object.assign(new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <jane.doe@example.dk>: Recipient address rejected"), {
      code: 'EENVELOPE',
      response: '550 5.1.1 <jane.doe@example.dk>: Recipient address rejected',
      rejected: ['jane.doe@example.dk'],
      command: 'RCPT TO',
    });
    const sms = new Error('SMS to +45 29384756 failed (also 29 38 47 56)');
    const logged = JSON.stringify([serializeError(smtp), serializeError(sms)]);
    for (const value of ['jane.doe@example.dk', '29384756', '29 38 47 56']) expect(logged).not.toContain(value);
    expect(logged).toContain('EENVELOPE');
    expect(logged).toContain('Recipient address rejected');
  });
});

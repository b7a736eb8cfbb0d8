import { describe, expect, it } from 'vitest';
import { searchTermOf } from '#server/domain/search/search-terms.ts';
import { isBotAgent } from '#server/domain/visitors.ts';

describe('what a visitor typed, as a search term (searchTermOf)', () => {
  it.each([
    ['Thaimassage', 'thaimassage'],
    ['  Escort   KØBENHAVN ', 'escort koebenhavn'],
    ['Ålborg', 'aalborg'],
    ['Aarhus C', 'aarhus c'],
    ['Malée!', 'malee'],
    ['massage, olie & afslapning', 'massage olie afslapning'],
    ['trans-escort', 'trans-escort'],
    ['escort 2100', 'escort 2100'],
    ['1/2 time', '1 2 time'],
  ])('%j → %j', (typed, term) => {
    expect(searchTermOf(typed)).toBe(term);
  });

  it.each([
    ['', 'nothing'],
    ['   ', 'spaces'],
    ['12 34 56 78', 'a phone number'],
    ['+45 20 30 40 50', 'a phone number with the country code'],
    ['ring 20304050', 'a phone number among words'],
    ['(+45) 2030-4050', 'a phone number with marks'],
    ['20/12/34/56', 'a phone number with slashes (issue 30)'],
    ['20_12_34_56', 'a phone number with underscores'],
    ['tlf: 20:12:34:56', 'a phone number with colons'],
    ['20 12 34 56 anna', 'a phone number with a name'],
    ['anna@example.dk', 'an email address'],
    ['sofie@hotmail', 'an email address without its domain ending (issue 30)'],
    ['sofie @ hotmail.com', 'an email address with spaces around the @'],
    ['https://example.com/side', 'a web address'],
    ['www.example.dk', 'a web address without a scheme'],
    ['escort-side.dk', 'a domain'],
    ['2100', 'a bare number'],
    ['!!!', 'marks only'],
    ['a'.repeat(61), 'a very long string'],
  ])('%j is dropped (%s)', (typed) => {
    expect(searchTermOf(typed)).toBeNull();
  });
});

describe('bots (isBotAgent)', () => {
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', true],
    ['Mozilla/5.0 (compatible; bingbot/2.0)', true],
    ['curl/8.5.0', true],
    ['python-requests/2.32', true],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36', true],
    [undefined, true],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1', false],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', false],
  ])('%j → %s', (agent, bot) => {
    expect(isBotAgent(agent)).toBe(bot);
  });
});

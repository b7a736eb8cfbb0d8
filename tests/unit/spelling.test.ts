import { describe, expect, it } from 'vitest';
import { Vocabulary, correctedText, trigramsOf } from '#server/domain/search/spelling.ts';

describe('typos in the free-text search (spelling.ts)', () => {
  it('forms trigrams as pg_trgm does', () => {
    expect(trigramsOf('cat')).toEqual(['  c', ' ca', 'cat', 'at ']);
  });

  const vocabulary = new Vocabulary(['malee thai københavn koebenhavn thaimassage fodmassage', 'birte aarhus escort', 'cleo trans-escort odense']);

  it.each([
    ['malle', 'malee'],
    ['thaimasage', 'thaimassage'],
    ['fodmasage', 'fodmassage'],
    ['odnse', 'odense'],
    ['aarhsu', 'aarhus'],
    ['kobenhavn', 'koebenhavn'],
  ])('%j is nearest to %j', (typed, known) => {
    expect(vocabulary.nearest(typed)).toBe(known);
  });

  it('finds nothing near a word unlike every known one', () => {
    expect(vocabulary.nearest('xyzzy')).toBeNull();
  });

  it('corrects only the words no advert holds, and says when there is nothing to correct', () => {
    expect(correctedText(vocabulary, ['thai', 'malle'])).toBe('thai malee');
    expect(correctedText(vocabulary, ['thai', 'malee'])).toBeNull();
    expect(correctedText(vocabulary, ['thai', 'xyzzy'])).toBeNull();
    // Too short to go on: kept as typed.
    expect(correctedText(vocabulary, ['xy', 'malle'])).toBe('xy malee');
  });
});

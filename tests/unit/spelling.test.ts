import { describe, expect, it } from 'vitest';
import { Vocabulary, correctedText, trigramsOf } from '#server/domain/search/spelling.ts';
import { danishNameOf, danishNamesStartingWith, indexPlaces, placesNamedIn, type NamedPlace } from '#server/domain/search/place-names.ts';

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

describe('places by the names visitors type (place-names.ts; issue 31, item 3)', () => {
  const places: NamedPlace[] = [
    { name: 'København', regionSlug: 'region-hovedstaden', citySlug: 'koebenhavn', region: 'Region Hovedstaden' },
    { name: 'Helsingør', regionSlug: 'region-hovedstaden', citySlug: 'helsingoer', region: 'Region Hovedstaden' },
    { name: 'Kongens Lyngby', regionSlug: 'region-hovedstaden', citySlug: 'kongens-lyngby', region: 'Region Hovedstaden' },
    { name: 'Aarhus', regionSlug: 'region-midtjylland', citySlug: 'aarhus', region: 'Region Midtjylland' },
    { name: 'Region Hovedstaden', regionSlug: 'region-hovedstaden', citySlug: null, region: 'Region Hovedstaden' },
    { name: 'Region Midtjylland', regionSlug: 'region-midtjylland', citySlug: null, region: 'Region Midtjylland' },
  ];
  const known = indexPlaces(places, new Map([['region-hovedstaden', 'Capital Region of Denmark']]));
  const names = (text: string) => placesNamedIn(known, text).map((place) => place.name);

  it('reads foreign names of Danish places as the Danish ones', () => {
    expect(danishNameOf('Kopenhagen')).toBe('København');
    expect(danishNameOf('copenhagen')).toBe('København');
    expect(danishNameOf('ELSINORE')).toBe('Helsingør');
    expect(danishNameOf('Århus')).toBe('Aarhus');
    expect(danishNameOf('Odense')).toBeNull();
    expect(correctedText(new Vocabulary(['malee thai københavn']), ['thai', 'kopenhagen'], danishNameOf)).toBe('thai københavn');
  });

  it('finds the places a text names, by Danish, foreign or English name or a typo, each city with its region', () => {
    expect(names('Elsinore')).toEqual(['Helsingør', 'Region Hovedstaden']);
    expect(names('escort Kopenhagen')).toEqual(['København', 'Region Hovedstaden']);
    expect(names('kongens lyngby')).toEqual(['Kongens Lyngby', 'Region Hovedstaden']);
    expect(names('Arhus')).toEqual(['Aarhus', 'Region Midtjylland']);
    expect(names('Aarhsu')).toEqual(['Aarhus', 'Region Midtjylland']);
    expect(names('Capital Region of Denmark')).toEqual(['Region Hovedstaden']);
    expect(names('Midtjylland')).toEqual(['Region Midtjylland']);
    expect(names('xyzzy')).toEqual([]);
  });

  it('offers the Danish name in the location box as a foreign name is typed', () => {
    expect(danishNamesStartingWith('Copenh')).toEqual(['København']);
    expect(danishNamesStartingWith('elsin')).toEqual(['Helsingør']);
    expect(danishNamesStartingWith('ko')).toEqual([]);
  });
});

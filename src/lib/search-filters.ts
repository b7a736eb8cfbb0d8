/**
 * Search filters <-> URL query (spec §2): video, outcall, incall, review, validated, languages, breasts,
 * nationalities, services (comma lists of ids), text, ageFrom/ageTo, heightFrom/heightTo,
 * weightFrom/weightTo (each bound only when it differs from its default) and page. Also the parameters of
 * the searchpageprofiles call for a filter state. Pure functions: used by the island and unit-tested.
 */
import { FILTER_DEFAULTS, PAGE_SIZE } from './schemas/search.ts';

export const FLAG_FILTERS = ['incall', 'outcall', 'validated', 'video', 'review'] as const;
export type FlagFilter = (typeof FLAG_FILTERS)[number];

export const LIST_FILTERS = ['languages', 'nationalities', 'services', 'breasts'] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

export const RANGE_FILTERS = ['age', 'height', 'weight'] as const;
export type RangeFilter = (typeof RANGE_FILTERS)[number];

/** Bounds of each range (the defaults are the whole range). */
export const RANGE_BOUNDS: Record<RangeFilter, { min: number; max: number }> = {
  age: { min: FILTER_DEFAULTS.ageFrom, max: FILTER_DEFAULTS.ageTo },
  height: { min: FILTER_DEFAULTS.heightFrom, max: FILTER_DEFAULTS.heightTo },
  weight: { min: FILTER_DEFAULTS.weightFrom, max: FILTER_DEFAULTS.weightTo },
};

export type FilterState = {
  text: string;
  page: number;
} & Record<FlagFilter, boolean> &
  Record<ListFilter, number[]> &
  Record<`${RangeFilter}From` | `${RangeFilter}To`, number>;

export const DEFAULT_FILTERS: FilterState = {
  text: '',
  page: 1,
  incall: false,
  outcall: false,
  validated: false,
  video: false,
  review: false,
  languages: [],
  nationalities: [],
  services: [],
  breasts: [],
  ...FILTER_DEFAULTS,
};

const MAX_TEXT = 100;
const MAX_PAGE = 999;
const MAX_IDS = 100;

function readFlag(value: string | null): boolean {
  return value === 'true' || value === '1';
}

function readIds(value: string | null): number[] {
  if (!value) return [];
  const ids = new Set<number>();
  for (const part of value.split(',')) {
    const trimmed = part.trim();
    if (/^\d{1,9}$/.test(trimmed)) ids.add(Number(trimmed));
  }
  return [...ids].sort((a, b) => a - b).slice(0, MAX_IDS);
}

function readInt(value: string | null, fallback: number, min: number, max: number): number {
  if (value === null || !/^\d{1,4}$/.test(value.trim())) return fallback;
  return Math.min(max, Math.max(min, Number(value)));
}

/** The filter state of a URL query ('?video=true&ageFrom=25'); anything unreadable falls back to its default. */
export function filtersFromQuery(query: string | URLSearchParams): FilterState {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const state: FilterState = { ...DEFAULT_FILTERS };
  state.text = (params.get('text') ?? '').trim().slice(0, MAX_TEXT);
  state.page = readInt(params.get('page'), 1, 1, MAX_PAGE);
  for (const flag of FLAG_FILTERS) state[flag] = readFlag(params.get(flag));
  for (const list of LIST_FILTERS) state[list] = readIds(params.get(list));
  for (const range of RANGE_FILTERS) {
    const { min, max } = RANGE_BOUNDS[range];
    let from = readInt(params.get(`${range}From`), min, min, max);
    let to = readInt(params.get(`${range}To`), max, min, max);
    if (from > to) [from, to] = [to, from];
    state[`${range}From`] = from;
    state[`${range}To`] = to;
  }
  return state;
}

/** The query of a filter state, in a fixed order, without defaults: '' or '?incall=true&languages=1,2'. */
export function filtersToQuery(state: FilterState): string {
  const params = new URLSearchParams();
  for (const flag of FLAG_FILTERS) if (state[flag]) params.set(flag, 'true');
  for (const list of LIST_FILTERS) if (state[list].length > 0) params.set(list, [...state[list]].sort((a, b) => a - b).join(','));
  const text = state.text.trim();
  if (text) params.set('text', text);
  for (const range of RANGE_FILTERS) {
    const { min, max } = RANGE_BOUNDS[range];
    if (state[`${range}From`] !== min) params.set(`${range}From`, String(state[`${range}From`]));
    if (state[`${range}To`] !== max) params.set(`${range}To`, String(state[`${range}To`]));
  }
  if (state.page > 1) params.set('page', String(state.page));
  // Commas in the id lists stay readable.
  const query = params.toString().replace(/%2C/g, ',');
  return query ? `?${query}` : '';
}

/** How many filters differ from their defaults (the page does not count; a changed range counts once). */
export function activeFilterCount(state: FilterState): number {
  let count = 0;
  for (const flag of FLAG_FILTERS) if (state[flag]) count += 1;
  for (const list of LIST_FILTERS) if (state[list].length > 0) count += 1;
  if (state.text.trim()) count += 1;
  for (const range of RANGE_FILTERS) {
    const { min, max } = RANGE_BOUNDS[range];
    if (state[`${range}From`] !== min || state[`${range}To`] !== max) count += 1;
  }
  return count;
}

/** True when the prebuilt first page does not show this state (a filter is set or a later page). */
export function needsFetch(state: FilterState): boolean {
  return activeFilterCount(state) > 0 || state.page > 1;
}

/** The state with every filter back at its default and the first page (the free text stays when asked). */
export function resetFilters(state: FilterState, keepText = false): FilterState {
  return { ...DEFAULT_FILTERS, text: keepText ? state.text : '' };
}

export type SearchCallParams = Record<string, string | number>;

/**
 * Parameters of searchpageprofiles(withfreetext) for a state: `Url` (a Danish landing path such as
 * '/escort/region-hovedstaden/') sets kind, region and city; only filters that are set are sent.
 */
export function searchCallParams(
  state: FilterState,
  options: { url?: string; text?: string; locale: string; pageSize?: number },
): SearchCallParams {
  const params: SearchCallParams = {
    Page: state.page,
    PageSize: options.pageSize ?? PAGE_SIZE,
    Locale: options.locale,
  };
  if (options.url) params['Url'] = options.url;
  const text = (options.text ?? state.text).trim();
  if (text) params['Text'] = text;
  const names: Record<FlagFilter, string> = { incall: 'Incall', outcall: 'Outcall', validated: 'Validated', video: 'Video', review: 'Review' };
  for (const flag of FLAG_FILTERS) if (state[flag]) params[names[flag]] = 'true';
  const lists: Record<ListFilter, string> = { languages: 'Languages', nationalities: 'Nationalities', services: 'Services', breasts: 'Breasts' };
  for (const list of LIST_FILTERS) if (state[list].length > 0) params[lists[list]] = state[list].join(',');
  const ranges: Record<RangeFilter, string> = { age: 'Age', height: 'Height', weight: 'Weight' };
  for (const range of RANGE_FILTERS) {
    const { min, max } = RANGE_BOUNDS[range];
    if (state[`${range}From`] !== min) params[`${ranges[range]}From`] = state[`${range}From`];
    if (state[`${range}To`] !== max) params[`${ranges[range]}To`] = state[`${range}To`];
  }
  return params;
}

/** Page numbers to offer around the current one: 1 … 4 5 [6] 7 8 … 20 (null marks a gap). */
export function pageWindow(current: number, last: number, around = 2): (number | null)[] {
  if (last <= 1) return [1];
  const pages: (number | null)[] = [];
  const from = Math.max(2, current - around);
  const to = Math.min(last - 1, current + around);
  pages.push(1);
  if (from > 2) pages.push(null);
  for (let page = from; page <= to; page += 1) pages.push(page);
  if (to < last - 1) pages.push(null);
  pages.push(last);
  return pages;
}

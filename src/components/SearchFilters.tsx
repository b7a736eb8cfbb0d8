/**
 * The search island: every filter of the spec and the results, on the landing pages (kind, region,
 * city) and on the free-text search page /search/{text}/.
 *
 * - The filters live in the URL query (src/lib/search-filters.ts): a change pushes a history entry, back
 *   and forward restore it (popstate), a reload or a cold visit with filters shows filtered results.
 * - Results come from searchpageprofiles (free text: searchpageprofileswithfreetext) without a reload;
 *   a newer request aborts the one in flight.
 * - On a landing page the prebuilt first page (the island's children) is shown while no filter is set;
 *   when it begins with search-promoted adverts, whose turn changes every minute (/ranking/), the first
 *   page of this minute replaces it quietly once it arrives.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { frontendApi } from '#lib/api/frontend.ts';
import type { LocationSuggestion } from '#lib/api/types.ts';
import { GRID_CLASS, advertGridItemsHtml } from '#lib/advert-card.ts';
import { localizePath, type Locale } from '#lib/i18n/locales.ts';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import type { FreeTextResult, NamedPlace, SearchResult } from '#lib/schemas/public-advert.ts';
import {
  DEFAULT_FILTERS,
  FLAG_FILTERS,
  RANGE_BOUNDS,
  activeFilterCount,
  filtersFromQuery,
  filtersToQuery,
  needsFetch,
  pageWindow,
  resetFilters,
  searchCallParams,
  type FilterState,
  type FlagFilter,
  type ListFilter,
  type RangeFilter,
} from '#lib/search-filters.ts';
import { searchTextFrom } from './search-text.ts';
import MultiSelect, { type MultiSelectText } from './MultiSelect.tsx';
import LocationSearch from './LocationSearch.tsx';

export type WidenLink = { href: string; label: string };

type Option = { id: number; name: string };
/** What the filters offer (profilesreferences, without what the filters do not show). */
export type FilterReferences = { languages: Option[]; nationalities: Option[]; services: Option[]; breastTypes: Option[] };

type Props = {
  messages: Messages;
  locale: Locale;
  mode: 'landing' | 'freetext';
  references: FilterReferences;
  /** Landing mode: the Danish landing path ('/escort/region-hovedstaden/'), sent as `Url`. */
  landingPath?: string;
  /** Landing mode: the kind in the path, for the location search's targets. */
  kind?: string;
  /** Landing mode: the total of the prebuilt first page. */
  initialTotal?: number;
  /**
   * Where to look when nothing matches: landing mode, the places to widen the search to (the region, the
   * kind; shown after "Søg i", the filters go along); free-text mode, the kinds' pages (labels as given).
   */
  widen?: WidenLink[];
  /** The prebuilt first page (landing mode). */
  children?: ReactNode;
  /** Landing mode: the prebuilt first page begins with search-promoted adverts (their order is the build's minute's). */
  promotedFirst?: boolean;
};

type Status = 'idle' | 'loading' | 'error';

const TEXT_DEBOUNCE_MS = 450;

export default function SearchFilters({
  messages,
  locale,
  mode,
  references,
  landingPath,
  kind,
  initialTotal,
  widen = [],
  children,
  promotedFirst = false,
}: Props) {
  const t = messagesT(messages);
  const [filters, setFilters] = useState<FilterState>(DEFAULT_FILTERS);
  const [freeText, setFreeText] = useState<string | null>(mode === 'freetext' ? null : '');
  const [result, setResult] = useState<(SearchResult & Partial<Pick<FreeTextResult, 'spelledAs' | 'places'>>) | null>(null);
  const [status, setStatus] = useState<Status>('idle');
  const [retry, setRetry] = useState(0);
  const [panelOpen, setPanelOpen] = useState(false);
  const [bodyOpen, setBodyOpen] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const focusResults = useRef(false);

  // The state of the URL when the island starts, and on back/forward.
  useEffect(() => {
    const read = () => {
      setFilters(filtersFromQuery(location.search));
      setUrlRead(true);
      if (mode === 'freetext') setFreeText(searchTextFrom(location.pathname, location.search));
    };
    read();
    if (mode === 'freetext') {
      // A search sent without JS (/search/?text=...) gets its proper URL.
      const text = searchTextFrom(location.pathname, location.search);
      const base = localizePath('/search/', locale);
      if (text && location.pathname === base) {
        const params = new URLSearchParams(location.search);
        params.delete('text');
        const rest = filtersToQuery(filtersFromQuery(params));
        history.replaceState(history.state, '', `${base}${encodeURIComponent(text)}/${rest}`);
      }
      // The boxes that sent it (the header's, the phone's) show the text searched for.
      if (text) for (const input of document.querySelectorAll<HTMLInputElement>('#header-search, #phone-search')) input.value = text;
    }
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, [mode, locale]);

  /** A change made by the visitor: new state, new history entry, first page unless paging. */
  const apply = useCallback((next: FilterState) => {
    setFilters(next);
    const url = `${location.pathname}${filtersToQuery(next)}`;
    if (url !== `${location.pathname}${location.search}`) history.pushState(history.state, '', url);
  }, []);

  const update = useCallback((change: Partial<FilterState>) => apply({ ...filters, ...change, page: 1 }), [apply, filters]);

  const query = filtersToQuery(filters);
  const unfiltered = mode === 'landing' && !needsFetch(filters);
  const [urlRead, setUrlRead] = useState(false);
  // This minute's first page, fetched in the background to replace a prebuilt one that begins with promoted adverts.
  const liveFirstPage = unfiltered && promotedFirst && urlRead;
  const showPrebuilt = unfiltered && !(liveFirstPage && result);

  // The page hid its prebuilt results for a URL with filters (SearchLanding.astro); once this island has
  // rendered the URL's state (filtered results loading, or the prebuilt page when the query held only
  // defaults), show what it renders.
  useEffect(() => {
    if (urlRead) document.documentElement.removeAttribute('data-filtered-url');
  }, [urlRead]);

  // Results for the current state; a newer request aborts the older one.
  useEffect(() => {
    controller.current?.abort();
    if ((unfiltered && !liveFirstPage) || (mode === 'freetext' && !freeText)) {
      setResult(null);
      setStatus('idle');
      return;
    }
    const current = new AbortController();
    controller.current = current;
    if (!liveFirstPage) setStatus('loading');
    const state = filtersFromQuery(query);
    const call =
      mode === 'freetext'
        ? frontendApi.searchFreeText(searchCallParams(state, { text: freeText ?? '', locale }), current.signal)
        : frontendApi.searchProfiles(searchCallParams(state, { url: landingPath ?? '', locale }), current.signal);
    call.then(
      (found) => {
        if (current.signal.aborted) return;
        setResult(found);
        setStatus('idle');
        if (focusResults.current) {
          focusResults.current = false;
          resultsHeading.current?.focus({ preventScroll: true });
          resultsHeading.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
        }
      },
      (error: unknown) => {
        if (current.signal.aborted) return;
        console.warn('Search failed', error);
        // The prebuilt first page stays when this minute's could not be had.
        setStatus(liveFirstPage ? 'idle' : 'error');
      },
    );
    return () => current.abort();
  }, [query, unfiltered, liveFirstPage, mode, freeText, landingPath, locale, retry]);

  const goToPage = (page: number) => {
    focusResults.current = true;
    apply({ ...filters, page });
  };

  const total = result?.total ?? (showPrebuilt ? (initialTotal ?? 0) : null);
  const pageSize = result?.pageSize ?? 24;
  const lastPage = total === null ? 1 : Math.max(1, Math.ceil(total / pageSize));
  const active = activeFilterCount(filters);
  const bodyFiltered = filters.breasts.length > 0 || activeRange(filters, 'height') || activeRange(filters, 'weight');
  useEffect(() => {
    if (bodyFiltered) setBodyOpen(true);
  }, [bodyFiltered]);

  const multiText = (name: string): MultiSelectText => ({
    filterLabel: t('multiselect.filterLabel', { name }),
    filterPlaceholder: t('multiselect.placeholder'),
    noMatch: t('multiselect.noMatch'),
    empty: t('multiselect.empty'),
    remove: (option) => t('multiselect.remove', { name: option }),
    selected: t('multiselect.selected'),
  });

  /** A place's landing page of the current kind (escort on the free-text search), filters kept. */
  const placeHref = (place: Pick<NamedPlace, 'regionSlug' | 'citySlug'>) => {
    const path = `/${kind ?? 'escort'}/${place.regionSlug}/${place.citySlug ? `${place.citySlug}/` : ''}`;
    return localizePath(path, locale) + filtersToQuery({ ...filters, page: 1 });
  };
  const locationHref = (suggestion: LocationSuggestion) => placeHref(suggestion);

  const grid = useMemo(
    () => (result ? advertGridItemsHtml(result.items, { locale, messages, promotion: 'search' }) : ''),
    [result, locale, messages],
  );

  const heading =
    mode === 'freetext' ? (freeText ? t('search_page.heading', { text: freeText }) : t('search_page.headingEmpty')) : null;

  return (
    // data-search-ready: the island has read the URL and handles clicks (browser tests wait for it).
    <div className="lg:grid lg:grid-cols-[17rem_minmax(0,1fr)] lg:gap-8" data-search-ready={urlRead ? '' : undefined}>
      {heading !== null ? (
        <h1 className="mb-4 text-3xl font-bold tracking-tight text-ink lg:col-span-2 lg:mb-0">{heading}</h1>
      ) : null}
      <div className="mb-4 lg:mb-0">
        <button
          type="button"
          aria-expanded={panelOpen}
          aria-controls="search-filters"
          onClick={() => setPanelOpen((open) => !open)}
          className="inline-flex min-h-11 w-full items-center justify-between rounded-lg border border-slate-300 bg-white px-4 font-semibold text-ink lg:hidden"
        >
          <span>
            {t('filters.toggle')}
            {active > 0 ? <span className="ml-1 font-normal text-muted">({active})</span> : null}
          </span>
          <svg aria-hidden="true" viewBox="0 0 20 20" className={`h-4 w-4 transition ${panelOpen ? 'rotate-180' : ''}`} fill="currentColor">
            <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
          </svg>
        </button>
        <form
          id="search-filters"
          role="search"
          aria-label={t('filters.label')}
          onSubmit={(event) => event.preventDefault()}
          className={`${panelOpen ? 'mt-3 block' : 'hidden'} space-y-4 rounded-2xl border border-slate-200 bg-white p-4 lg:mt-0 lg:block`}
        >
          {mode === 'landing' ? (
            <>
              <LocationSearch
                locale={locale}
                hrefFor={locationHref}
                text={{
                  label: t('filters.location'),
                  placeholder: t('filters.locationPlaceholder'),
                  region: t('filters.locationRegion'),
                  none: t('filters.locationNone'),
                }}
              />
              <TextFilter
                label={t('filters.text')}
                placeholder={t('filters.textPlaceholder')}
                value={filters.text}
                onCommit={(text) => update({ text })}
              />
            </>
          ) : null}
          <fieldset>
            <legend className="text-sm font-semibold text-ink">{t('filters.showOnly')}</legend>
            <div className="mt-1 grid grid-cols-2 gap-x-2 lg:grid-cols-1">
              {FLAG_FILTERS.map((flag: FlagFilter) => (
                <label key={flag} className="flex min-h-10 cursor-pointer items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    name={flag}
                    checked={filters[flag]}
                    onChange={(event) => update({ [flag]: event.target.checked } as Partial<FilterState>)}
                    className="h-4 w-4 accent-brand-700"
                  />
                  {t(`filters.${flag}`)}
                </label>
              ))}
            </div>
          </fieldset>
          <RangeFilterField
            range="age"
            legend={t('filters.age')}
            fromLabel={t('filters.from')}
            toLabel={t('filters.to')}
            unit={t('filters.years')}
            filters={filters}
            onCommit={update}
          />
          <div className="border-t border-slate-200">
            <MultiSelect
              legend={t('filters.languages')}
              name="languages"
              options={references.languages}
              selected={filters.languages}
              onChange={(languages) => update({ languages })}
              text={multiText(t('filters.languages'))}
            />
            <MultiSelect
              legend={t('filters.nationalities')}
              name="nationalities"
              options={references.nationalities}
              selected={filters.nationalities}
              onChange={(nationalities) => update({ nationalities })}
              text={multiText(t('filters.nationalities'))}
            />
            <MultiSelect
              legend={t('filters.services')}
              name="services"
              options={references.services}
              selected={filters.services}
              onChange={(services) => update({ services })}
              text={multiText(t('filters.services'))}
            />
            <details className="group border-b border-slate-200 py-1" open={bodyOpen} onToggle={(event) => setBodyOpen(event.currentTarget.open)}>
              <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 font-semibold text-ink [&::-webkit-details-marker]:hidden">
                {t('filters.body')}
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 transition group-open:rotate-180" fill="currentColor">
                  <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
                </svg>
              </summary>
              <div className="space-y-4 pb-3">
                <RangeFilterField
                  range="height"
                  legend={t('filters.height')}
                  fromLabel={t('filters.from')}
                  toLabel={t('filters.to')}
                  unit="cm"
                  filters={filters}
                  onCommit={update}
                />
                <RangeFilterField
                  range="weight"
                  legend={t('filters.weight')}
                  fromLabel={t('filters.from')}
                  toLabel={t('filters.to')}
                  unit="kg"
                  filters={filters}
                  onCommit={update}
                />
                <ListCheckboxes
                  legend={t('filters.breasts')}
                  name="breasts"
                  options={references.breastTypes}
                  selected={filters.breasts}
                  onChange={(breasts) => update({ breasts })}
                  empty={t('multiselect.empty')}
                />
              </div>
            </details>
          </div>
          <button
            type="button"
            onClick={() => apply(resetFilters(filters))}
            disabled={active === 0}
            className="inline-flex min-h-11 w-full items-center justify-center rounded-lg border border-slate-300 px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {t('filters.reset')}
          </button>
          {/* On a phone the results are below the open panel: this says how many there are now and goes to them. */}
          <button
            type="button"
            data-show-results
            onClick={() => {
              setPanelOpen(false);
              resultsHeading.current?.focus();
              resultsHeading.current?.scrollIntoView({ block: 'start' });
            }}
            className="sticky bottom-3 z-10 inline-flex min-h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white shadow-lg hover:bg-brand-800 lg:hidden"
          >
            {status === 'loading' || total === null ? t('results.loading') : t('filters.showResults', { count: total })}
          </button>
        </form>
      </div>

      <section aria-labelledby="results-heading" aria-busy={status === 'loading'}>
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="results-heading" ref={resultsHeading} tabIndex={-1} className="text-xl font-semibold text-ink focus:outline-none">
            {t('results.heading')}
          </h2>
          <p role="status" aria-live="polite" className="text-sm text-muted" data-result-count>
            {status === 'loading'
              ? t('results.loading')
              : status === 'error'
                ? ''
                : total === null
                  ? ''
                  : t('results.count', { count: total })}
          </p>
        </div>
        {status === 'error' ? (
          <div role="alert" className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
            {t('results.error')}{' '}
            <button type="button" onClick={() => setRetry((n) => n + 1)} className="font-semibold underline">
              {t('results.retry')}
            </button>
          </div>
        ) : null}
        {mode === 'freetext' && !freeText && freeText !== null ? (
          <p className="rounded-2xl border border-slate-200 bg-white p-6 text-slate-700">{t('search_page.hint')}</p>
        ) : null}
        {mode === 'freetext' && result?.spelledAs && result.items.length > 0 && status !== 'loading' ? (
          // The words as typed found nothing; these results are for what they were read as (issue 31, item 3).
          <p className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-slate-800" data-spelled-as={result.spelledAs}>
            <strong className="font-semibold">
              {t('search_page.didYouMean')}{' '}
              <a href={localizePath(`/search/${encodeURIComponent(result.spelledAs)}/`, locale) + filtersToQuery({ ...filters, page: 1 })} className="text-brand-700 underline">
                {result.spelledAs}
              </a>
              ?
            </strong>{' '}
            {t('search_page.showingFor', { typed: freeText ?? '', text: result.spelledAs })}
          </p>
        ) : null}
        <div className={status === 'loading' ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
          {showPrebuilt ? (
            <div data-prebuilt-results>{children}</div>
          ) : result && result.items.length > 0 ? (
            <ul className={GRID_CLASS} dangerouslySetInnerHTML={{ __html: grid }} />
          ) : null}
        </div>
        {result && result.items.length === 0 && status !== 'loading' ? (
          mode === 'freetext' ? (
            // Nothing for the words, even read as a known word (issue 31, item 3): what to try, the places the
            // words name (their landing pages, filters kept), else the kinds' pages.
            <EmptyState
              title={t('search_page.emptyTitle', { text: freeText ?? '' })}
              text={active > 0 ? t('search_page.emptyFiltered') : t('search_page.emptyText')}
              resetLabel={active > 0 ? t('filters.reset') : null}
              onReset={() => apply(resetFilters(filters))}
              links={
                result.places?.length
                  ? result.places.map((place) => ({ href: placeHref(place), label: `${t('results.widen')} ${place.name}` }))
                  : widen
              }
            />
          ) : (
            <EmptyState
              title={t('results.emptyTitle')}
              text={active > 0 ? t('results.emptyFiltered') : t('results.emptyText')}
              resetLabel={active > 0 ? t('filters.reset') : null}
              onReset={() => apply(resetFilters(filters))}
              links={widen.map((link) => ({ href: link.href + filtersToQuery({ ...filters, page: 1 }), label: `${t('results.widen')} ${link.label}` }))}
            />
          )
        ) : null}
        {showPrebuilt && (initialTotal ?? 0) === 0 ? (
          <EmptyState
            title={t('results.emptyTitle')}
            text={t('results.emptyText')}
            resetLabel={null}
            onReset={() => undefined}
            links={widen.map((link) => ({ ...link, label: `${t('results.widen')} ${link.label}` }))}
          />
        ) : null}
        {total !== null && lastPage > 1 ? (
          <Pagination
            current={Math.min(filters.page, lastPage)}
            last={lastPage}
            hrefFor={(page) => filtersToQuery({ ...filters, page }) || '?'}
            onPage={goToPage}
            label={t('results.pagination')}
            previous={t('results.previous')}
            next={t('results.next')}
            pageLabel={(page) => t('results.page', { page })}
          />
        ) : null}
      </section>
    </div>
  );
}

function activeRange(filters: FilterState, range: RangeFilter): boolean {
  const { min, max } = RANGE_BOUNDS[range];
  return filters[`${range}From`] !== min || filters[`${range}To`] !== max;
}

/** The free-text filter of a landing page: applied after a pause in typing, or at once with Enter. */
function TextFilter({ label, placeholder, value, onCommit }: { label: string; placeholder: string; value: string; onCommit: (text: string) => void }) {
  const [draft, setDraft] = useState(value);
  const committed = useRef(value);
  useEffect(() => {
    committed.current = value;
    setDraft(value);
  }, [value]);
  useEffect(() => {
    if (draft.trim() === committed.current.trim()) return;
    const timer = setTimeout(() => onCommit(draft.trim()), TEXT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, onCommit]);
  return (
    <div>
      <label htmlFor="filter-text" className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <input
        id="filter-text"
        type="search"
        name="text"
        value={draft}
        maxLength={100}
        placeholder={placeholder}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && draft.trim() !== committed.current.trim()) onCommit(draft.trim());
        }}
        className="mt-1 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-ink placeholder:text-slate-500"
      />
    </div>
  );
}

type RangeProps = {
  range: RangeFilter;
  legend: string;
  fromLabel: string;
  toLabel: string;
  unit: string;
  filters: FilterState;
  onCommit: (change: Partial<FilterState>) => void;
};

/**
 * A from–to pair of number fields. A value is applied when the field loses focus or on Enter (clamped to
 * the range, swapped when reversed), or after a pause in typing when it is already within the range.
 */
function RangeFilterField({ range, legend, fromLabel, toLabel, unit, filters, onCommit }: RangeProps) {
  const { min, max } = RANGE_BOUNDS[range];
  const from = filters[`${range}From`];
  const to = filters[`${range}To`];
  const [draft, setDraft] = useState({ from: String(from), to: String(to) });
  useEffect(() => setDraft({ from: String(from), to: String(to) }), [from, to]);

  const parse = (value: string, fallback: number) => {
    const number = Number.parseInt(value, 10);
    return Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : fallback;
  };
  const commit = useCallback(
    (next: { from: string; to: string }) => {
      let a = parse(next.from, min);
      let b = parse(next.to, max);
      if (a > b) [a, b] = [b, a];
      if (a !== from || b !== to) onCommit({ [`${range}From`]: a, [`${range}To`]: b } as Partial<FilterState>);
      else setDraft({ from: String(a), to: String(b) });
    },
    // parse depends only on min/max
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [from, to, min, max, range, onCommit],
  );

  useEffect(() => {
    const inRange = (value: string) => /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max;
    if (!inRange(draft.from) || !inRange(draft.to)) return;
    if (Number(draft.from) === from && Number(draft.to) === to) return;
    if (Number(draft.from) > Number(draft.to)) return;
    const timer = setTimeout(() => commit(draft), 700);
    return () => clearTimeout(timer);
  }, [draft, from, to, min, max, commit]);

  const field = (which: 'from' | 'to', label: string) => (
    <label className="flex flex-1 flex-col text-xs text-muted">
      {label}
      <span className="mt-0.5 flex items-center gap-1">
        <input
          type="number"
          inputMode="numeric"
          name={`${range}${which === 'from' ? 'From' : 'To'}`}
          min={min}
          max={max}
          value={draft[which]}
          onChange={(event) => setDraft((current) => ({ ...current, [which]: event.target.value }))}
          onBlur={() => commit(draft)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit(draft);
          }}
          className="h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 text-base text-ink"
        />
        <span aria-hidden="true" className="text-xs text-muted">
          {unit}
        </span>
      </span>
    </label>
  );

  return (
    <fieldset data-range={range}>
      <legend className="text-sm font-semibold text-ink">{legend}</legend>
      <div className="mt-1 flex items-end gap-2">
        {field('from', fromLabel)}
        <span aria-hidden="true" className="pb-2 text-muted">
          –
        </span>
        {field('to', toLabel)}
      </div>
    </fieldset>
  );
}

function ListCheckboxes({
  legend,
  name,
  options,
  selected,
  onChange,
  empty,
}: {
  legend: string;
  name: ListFilter;
  options: { id: number; name: string }[];
  selected: number[];
  onChange: (ids: number[]) => void;
  empty: string;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-ink">{legend}</legend>
      {options.length === 0 ? <p className="mt-1 text-sm text-muted">{empty}</p> : null}
      <div className="mt-1 flex flex-wrap gap-x-4">
        {options.map((option) => (
          <label key={option.id} className="flex min-h-10 cursor-pointer items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name={name}
              value={option.id}
              checked={selected.includes(option.id)}
              onChange={(event) =>
                onChange(event.target.checked ? [...selected, option.id].sort((a, b) => a - b) : selected.filter((id) => id !== option.id))
              }
              className="h-4 w-4 accent-brand-700"
            />
            {option.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function EmptyState({
  title,
  text,
  resetLabel,
  onReset,
  links,
}: {
  title: string;
  text: string;
  resetLabel: string | null;
  onReset: () => void;
  /** Where to look instead, with their whole labels. */
  links: WidenLink[];
}) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center md:p-10" data-empty-results>
      <p className="text-lg font-semibold text-ink">{title}</p>
      <p className="mt-2 text-slate-700">{text}</p>
      <div className="mt-5 flex flex-wrap justify-center gap-2">
        {resetLabel ? (
          <button
            type="button"
            onClick={onReset}
            className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
          >
            {resetLabel}
          </button>
        ) : null}
        {links.map((link) => (
          <a
            key={link.href}
            href={link.href}
            className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-5 font-semibold text-slate-800 hover:bg-slate-50"
          >
            {link.label}
          </a>
        ))}
      </div>
    </div>
  );
}

function Pagination({
  current,
  last,
  hrefFor,
  onPage,
  label,
  previous,
  next,
  pageLabel,
}: {
  current: number;
  last: number;
  hrefFor: (page: number) => string;
  onPage: (page: number) => void;
  label: string;
  previous: string;
  next: string;
  pageLabel: (page: number) => string;
}) {
  const link = (page: number, content: ReactNode, extra: { rel?: string; ariaLabel?: string; current?: boolean } = {}) => (
    <a
      href={hrefFor(page)}
      rel={extra.rel}
      aria-label={extra.ariaLabel}
      aria-current={extra.current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        onPage(page);
      }}
      className={`inline-flex h-11 min-w-11 items-center justify-center rounded-lg border px-3 text-sm font-semibold ${
        extra.current ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
      }`}
    >
      {content}
    </a>
  );
  return (
    <nav aria-label={label} className="mt-8">
      <ul className="flex flex-wrap items-center justify-center gap-1.5">
        {current > 1 ? <li>{link(current - 1, previous, { rel: 'prev' })}</li> : null}
        {pageWindow(current, last).map((page, index) =>
          page === null ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-muted">
              …
            </li>
          ) : (
            <li key={page}>{link(page, page, { ariaLabel: pageLabel(page), current: page === current })}</li>
          ),
        )}
        {current < last ? <li>{link(current + 1, next, { rel: 'next' })}</li> : null}
      </ul>
    </nav>
  );
}

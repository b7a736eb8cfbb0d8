/**
 * /support/matched-keywords/, unmatched-keywords/, paired-keywords/ and ignored-keywords/ (SEO; issue 17):
 * what visitors search for, one list each (GET matchedkeywords, unmatchedkeywords, pairedkeywords,
 * ignoredkeywords), counted over the last 7, 30 or 90 days with the share of searches that found nothing,
 * sorted by searches, by that share or by the term, searched by words, in pages of PAGE_SIZE; all kept in
 * the address (`?days=`, `?sort=`, `?term=`, `?skip=`). Matched terms say where they lead; unmatched ones
 * offer "make a landing page" (landing-pages/new/?term=) and "pair"; paired ones say with what, and the
 * pair can be removed; ignored ones can be shown again. Each term opens its own screen (chart per day).
 */
import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { supportKeywordsApi } from '#lib/api/support-keywords.ts';
import { KEYWORD_PERIODS, KEYWORD_SORTS, type KeywordList, type KeywordListAnswer, type KeywordPeriod, type KeywordRow, type KeywordSort } from '#lib/schemas/keywords.ts';
import { formatDate } from '#lib/format.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { reportFailure, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { skipOf } from '../../shared/paging.tsx';
import { useConfirmation } from '../../shared/use-confirmation.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter, type SupportRoute } from '../routes.ts';
import { Paging } from '../paging.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { Table, cell } from '../advert/advert-sections.tsx';

export const PAGE_SIZE = 25;

const ROUTES: Record<KeywordList, SupportRoute> = {
  matched: 'matchedKeywords',
  unmatched: 'unmatchedKeywords',
  paired: 'pairedKeywords',
  ignored: 'ignoredKeywords',
};

export type KeywordSearch = { days: KeywordPeriod; sort: KeywordSort; term: string };

/** A list's address for a search and a first row. */
export function keywordsHref(list: KeywordList, search: KeywordSearch, skip: number): string {
  const query = new URLSearchParams();
  if (search.days !== 30) query.set('days', String(search.days));
  if (search.sort !== 'searches') query.set('sort', search.sort);
  if (search.term) query.set('term', search.term);
  if (skip > 0) query.set('skip', String(skip));
  const text = query.toString();
  return `${supportPath(ROUTES[list])}${text ? `?${text}` : ''}`;
}

/** A term's own screen (under matched-keywords/ when it leads somewhere by itself, else unmatched-keywords/). */
export function keywordHref(row: Pick<KeywordRow, 'term' | 'target'>, days: KeywordPeriod): string {
  const route: SupportRoute = row.target ? 'matchedKeywords' : 'unmatchedKeywords';
  return `${supportPath(route)}${encodeURIComponent(row.term)}/${days !== 30 ? `?days=${days}` : ''}`;
}

/** "Make a landing page for this term": the landing-page editor with the term filled in. */
export const newLandingPageHref = (term: string) => `${supportPath('landingPages')}new/?term=${encodeURIComponent(term)}`;

/** The period of the address (`?days=`), 30 when missing or not offered. */
export function periodOf(search: Record<string, string>): KeywordPeriod {
  const days = Number(search['days']);
  return (KEYWORD_PERIODS as readonly number[]).includes(days) ? (days as KeywordPeriod) : 30;
}

/** The share of searches that found nothing, as a whole percentage. */
export const noResultShare = (row: { searches: number; noResults: number }) => (row.searches === 0 ? 0 : Math.round((100 * row.noResults) / row.searches));

function KeywordsScreen({ list, search }: { list: KeywordList; search: Record<string, string> }) {
  const sort = (KEYWORD_SORTS as readonly string[]).includes(search['sort'] ?? '') ? (search['sort'] as KeywordSort) : 'searches';
  const wanted: KeywordSearch = { days: periodOf(search), sort, term: (search['term'] ?? '').trim() };
  const skip = skipOf(search);
  return <KeywordsList key={`${list}\n${wanted.days}\n${sort}\n${wanted.term}\n${skip}`} list={list} search={wanted} skip={skip} />;
}

export const MatchedKeywordsScreen = ({ search }: SupportScreenProps) => <KeywordsScreen list="matched" search={search} />;
export const UnmatchedKeywordsScreen = ({ search }: SupportScreenProps) => <KeywordsScreen list="unmatched" search={search} />;
export const PairedKeywordsScreen = ({ search }: SupportScreenProps) => <KeywordsScreen list="paired" search={search} />;
export const IgnoredKeywordsScreen = ({ search }: SupportScreenProps) => <KeywordsScreen list="ignored" search={search} />;

function KeywordsList({ list, search, skip }: { list: KeywordList; search: KeywordSearch; skip: number }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) =>
    supportKeywordsApi.list(list, { Skip: skip, Take: PAGE_SIZE, Days: search.days, Sort: search.sort, ...(search.term ? { Term: search.term } : {}) }, signal),
  );
  const confirm = useConfirmation<KeywordRow>();

  const act = (row: KeywordRow, action: KeywordAction) => void keywordAction(t, row, action).then((done) => done && reload());

  return (
    <ScreenShell
      id="keywords-heading"
      title={t(`screens.${ROUTES[list]}`)}
      intro={t(`keywords.intro.${list}`)}
      aside={<SearchForm t={t} list={list} search={search} />}
      state={state}
      loadError={t('keywords.loadError')}
      onRetry={reload}
    >
      {(answer) => (
        <>
          <KeywordTable t={t} list={list} answer={answer} search={search} skip={skip} onAct={(row, action) => (action === 'ignore' ? act(row, action) : confirm.ask(row))} />
          {confirm.dialog({
            title: t(list === 'paired' ? 'keywords.confirm.removePairTitle' : 'keywords.confirm.removeIgnoreTitle'),
            body: (row) => t(list === 'paired' ? 'keywords.confirm.removePairBody' : 'keywords.confirm.removeIgnoreBody', { term: row.term }),
            confirmLabel: t(list === 'paired' ? 'keywords.actions.removePair' : 'keywords.actions.removeIgnore'),
            cancelLabel: t('form.cancel'),
            onConfirm: (row) => act(row, list === 'paired' ? 'removePair' : 'removeIgnore'),
          })}
        </>
      )}
    </ScreenShell>
  );
}

/** The period, the order and the words, as a search form whose result is the list's address. */
export function PeriodSelect({ t, id, value, onChange }: { t: TFunction; id: string; value: KeywordPeriod; onChange: (days: KeywordPeriod) => void }) {
  return (
    <Field id={id} label={t('keywords.period')}>
      {(control) => (
        <select {...control} value={value} onChange={(e) => onChange(Number(e.target.value) as KeywordPeriod)} className={controlClass(false, 'h-11')}>
          {KEYWORD_PERIODS.map((days) => (
            <option key={days} value={days}>
              {t('keywords.lastDays', { count: days })}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function SearchForm({ t, list, search }: { t: TFunction; list: KeywordList; search: KeywordSearch }) {
  const [days, setDays] = useState(search.days);
  const [sort, setSort] = useState(search.sort);
  const [term, setTerm] = useState(search.term);
  function submit(event: FormEvent) {
    event.preventDefault();
    supportRouter.open(keywordsHref(list, { days, sort, term: term.trim() }, 0));
  }
  return (
    <form role="search" onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3">
      <Field id="keywords-term" label={t('keywords.term')}>
        {(control) => <input {...control} type="search" value={term} onChange={(e) => setTerm(e.target.value)} maxLength={60} className={controlClass(false, 'h-11 w-56 max-w-full')} />}
      </Field>
      <PeriodSelect t={t} id="keywords-days" value={days} onChange={setDays} />
      <Field id="keywords-sort" label={t('keywords.sort')}>
        {(control) => (
          <select {...control} value={sort} onChange={(e) => setSort(e.target.value as KeywordSort)} className={controlClass(false, 'h-11')}>
            {KEYWORD_SORTS.map((value) => (
              <option key={value} value={value}>
                {t(`keywords.sorts.${value}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" className={secondaryButton}>
        {t('keywords.show')}
      </button>
    </form>
  );
}

export type KeywordAction = 'ignore' | 'removePair' | 'removeIgnore';
type Act = (row: KeywordRow, action: KeywordAction) => void;

/** Ignore a term, or take its pair or ignore back (by the decision's Id), said in a toast; true when done. */
export async function keywordAction(t: TFunction, row: Pick<KeywordRow, 'term' | 'id'>, action: KeywordAction): Promise<boolean> {
  try {
    if (action === 'ignore') await supportKeywordsApi.insert({ Keyword: row.term, Kind: 'ignored', PairedWith: '', PageUrl: '' });
    else if (row.id !== null) await (action === 'removePair' ? supportKeywordsApi.removePair(row.id) : supportKeywordsApi.removeIgnore(row.id));
    toast({ title: t(`keywords.done.${action}`, { term: row.term }), variant: 'success' });
    return true;
  } catch (error) {
    reportFailure(t, error);
    return false;
  }
}

function KeywordTable({ t, list, answer, search, skip, onAct }: { t: TFunction; list: KeywordList; answer: KeywordListAnswer; search: KeywordSearch; skip: number; onAct: Act }) {
  if (answer.items.length === 0) return <p className="mt-6 text-slate-700">{t(`keywords.empty.${list}`)}</p>;
  const extra = list === 'matched' ? 'leadsTo' : list === 'paired' ? 'pairedWith' : list === 'ignored' ? 'ignoredOn' : null;
  const columns = ['term', 'searches', 'noResults', ...(extra ? [extra] : []), 'actions'].map((column) => t(`keywords.columns.${column}`));
  return (
    <>
      <Table caption={t('keywords.caption', { count: search.days })} columns={columns}>
        {answer.items.map((row) => (
          <tr key={row.term} data-keyword={row.term}>
            <th scope="row" className="px-3 py-2 font-medium">
              <AppLink router={supportRouter} href={keywordHref(row, search.days)} className="text-brand-700 underline">
                {row.term}
              </AppLink>
            </th>
            <td className={`${cell} tabular-nums`}>{row.searches}</td>
            <td className={`${cell} tabular-nums`}>{t('keywords.share', { share: noResultShare(row) })}</td>
            {extra === 'leadsTo' && <td className={cell}>{row.target && <TargetLink t={t} target={row.target} />}</td>}
            {extra === 'pairedWith' && <td className={cell}>{row.pageUrl ? <a href={row.pageUrl} className="text-brand-700 underline">{row.pageUrl}</a> : row.pairedWith}</td>}
            {extra === 'ignoredOn' && <td className={`${cell} whitespace-nowrap`}>{row.decidedAt ? formatDate(row.decidedAt) : ''}</td>}
            <td className={`${cell} whitespace-nowrap text-right`}>
              <RowActions t={t} list={list} row={row} days={search.days} onAct={onAct} />
            </td>
          </tr>
        ))}
      </Table>
      <Paging t={t} total={answer.total} count={answer.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => keywordsHref(list, search, next)} />
    </>
  );
}

/** Where a matched term leads: what it names and its public page. */
export function TargetLink({ t, target }: { t: TFunction; target: NonNullable<KeywordRow['target']> }) {
  return (
    <span>
      {t(`keywords.targets.${target.type}`)}:{' '}
      <a href={target.url} className="text-brand-700 underline">
        {target.type === 'kind' ? target.url : target.title}
      </a>
    </span>
  );
}

function RowActions({ t, list, row, days, onAct }: { t: TFunction; list: KeywordList; row: KeywordRow; days: KeywordPeriod; onAct: Act }) {
  const label = (action: string) => t(`keywords.actions.${action}Of`, { term: row.term });
  return (
    <span className="inline-flex flex-wrap justify-end gap-2">
      {list === 'unmatched' && (
        <>
          <AppLink router={supportRouter} href={newLandingPageHref(row.term)} className={smallButton} aria-label={label('makePage')}>
            {t('keywords.actions.makePage')}
          </AppLink>
          <AppLink router={supportRouter} href={`${keywordHref(row, days)}#pair`} className={smallButton} aria-label={label('pair')}>
            {t('keywords.actions.pair')}
          </AppLink>
        </>
      )}
      {(list === 'unmatched' || list === 'matched') && (
        <button type="button" className={smallButton} aria-label={label('ignore')} onClick={() => onAct(row, 'ignore')}>
          {t('keywords.actions.ignore')}
        </button>
      )}
      {list === 'paired' && row.id !== null && (
        <button type="button" className={smallButton} aria-label={label('removePair')} onClick={() => onAct(row, 'removePair')}>
          {t('keywords.actions.removePair')}
        </button>
      )}
      {list === 'ignored' && row.id !== null && (
        <button type="button" className={smallButton} aria-label={label('removeIgnore')} onClick={() => onAct(row, 'removeIgnore')}>
          {t('keywords.actions.removeIgnore')}
        </button>
      )}
    </span>
  );
}

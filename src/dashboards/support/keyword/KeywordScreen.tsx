/**
 * /support/matched-keywords/{keyword}/ and /support/unmatched-keywords/{keyword}/ (SEO; issue 17): one
 * visitors' search term (GET keyword): its list, where it leads or what it is paired with, its searches
 * and those that found nothing per day over 7, 30 or 90 days as a chart (uPlot, loaded with this screen
 * only: docs/decisions/029) with the numbers in a table beside it, and the searches before and after it was
 * paired. Actions: pair it with another term or a page of the site (POST keyword), ignore it, take the
 * pair or the ignore back (removepair, removeignore), make a landing page for it.
 */
import { useEffect, useRef } from 'react';
import type { TFunction } from 'i18next';
import type * as v from 'valibot';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { supportKeywordsApi } from '#lib/api/support-keywords.ts';
import { KeywordInsertSchema, type KeywordDetail, type KeywordPeriod } from '#lib/schemas/keywords.ts';
import { formatIsoDay } from '#lib/format.ts';
import { isApiError } from '#lib/api/errors.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { fieldText, noticeText, primaryButton, secondaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useConfirmation } from '../../shared/use-confirmation.tsx';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { ItemScreen } from '../item-screen.tsx';
import { Table, cell } from '../advert/advert-sections.tsx';
import { PeriodSelect, TargetLink, keywordAction, keywordHref, newLandingPageHref, noResultShare, periodOf, type KeywordAction } from '../keywords/KeywordsScreen.tsx';

export default function KeywordScreen({ params, search }: SupportScreenProps) {
  const keyword = params['keyword'] ?? '';
  const days = periodOf(search);
  return <KeywordLoader key={`${keyword}\n${days}`} keyword={keyword} days={days} />;
}

function KeywordLoader({ keyword, days }: { keyword: string; days: KeywordPeriod }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData<KeywordDetail | 'notFound'>(async (signal) => {
    try {
      return await supportKeywordsApi.keyword(keyword, days, signal);
    } catch (error) {
      if (isApiError(error, 404) || isApiError(error, 400)) return 'notFound';
      throw error;
    }
  });
  const list = state.status === 'ready' && state.data !== 'notFound' ? state.data.list : 'unmatched';
  const backRoute = list === 'matched' ? 'matchedKeywords' : list === 'paired' ? 'pairedKeywords' : list === 'ignored' ? 'ignoredKeywords' : 'unmatchedKeywords';
  return (
    <ItemScreen
      width="max-w-4xl"
      catalog="keywords"
      list={backRoute}
      backLabel={t('keywords.back', { list: t(`screens.${backRoute}`) })}
      title={t('keywords.termTitle', { term: keyword })}
      state={state}
      onRetry={reload}
    >
      {(detail) => <KeywordView t={t} detail={detail} onChanged={reload} />}
    </ItemScreen>
  );
}

function KeywordView({ t, detail, onChanged }: { t: TFunction; detail: KeywordDetail; onChanged: () => void }) {
  const confirm = useConfirmation<KeywordDetail>();
  const act = (action: KeywordAction) => void keywordAction(t, detail, action).then((done) => done && onChanged());
  const share = noResultShare(detail);
  return (
    <div className="mt-6 space-y-8">
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]" data-keyword-list={detail.list}>
        <dt className="font-semibold text-ink">{t('keywords.list')}</dt>
        <dd>{t(`keywords.lists.${detail.list}`)}</dd>
        <dt className="font-semibold text-ink">{t('keywords.columns.searches')}</dt>
        <dd>{t('keywords.totals', { count: detail.searches, days: detail.days, share })}</dd>
        {detail.target && (
          <>
            <dt className="font-semibold text-ink">{t('keywords.columns.leadsTo')}</dt>
            <dd>
              <TargetLink t={t} target={detail.target} />
            </dd>
          </>
        )}
        {(detail.pairedWith || detail.pageUrl) && (
          <>
            <dt className="font-semibold text-ink">{t('keywords.columns.pairedWith')}</dt>
            <dd data-paired-with>{detail.pageUrl ? <a href={detail.pageUrl} className="text-brand-700 underline">{detail.pageUrl}</a> : detail.pairedWith}</dd>
          </>
        )}
      </dl>

      <section aria-labelledby="keyword-chart-title">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="keyword-chart-title" className="text-xl font-semibold text-ink">
            {t('keywords.perDay')}
          </h2>
          <PeriodSelect t={t} id="keyword-days" value={detail.days} onChange={(days) => supportRouter.open(keywordHref(detail, days))} />
        </div>
        <SearchesChart t={t} detail={detail} />
        <details className="mt-3">
          <summary className="cursor-pointer font-medium text-brand-700">{t('keywords.numbers')}</summary>
          <Table caption={t('keywords.perDay')} columns={[t('keywords.columns.day'), t('keywords.columns.searches'), t('keywords.columns.noResultsCount')]}>
            {detail.perDay
              .filter((row) => row.searches > 0)
              .map((row) => (
                <tr key={row.day}>
                  <th scope="row" className="whitespace-nowrap px-3 py-2 font-medium">
                    {formatIsoDay(row.day)}
                  </th>
                  <td className={`${cell} tabular-nums`}>{row.searches}</td>
                  <td className={`${cell} tabular-nums`}>{row.noResults}</td>
                </tr>
              ))}
          </Table>
        </details>
        {detail.beforeAfter && detail.decidedAt && (
          <p className="mt-3 text-slate-800" data-before-after>
            {t('keywords.beforeAfter', {
              day: formatIsoDay(detail.decidedAt.slice(0, 10)),
              before: noResultShare(detail.beforeAfter.before),
              beforeCount: detail.beforeAfter.before.searches,
              after: noResultShare(detail.beforeAfter.after),
              afterCount: detail.beforeAfter.after.searches,
            })}
          </p>
        )}
      </section>

      <section aria-labelledby="keyword-actions-title" className="space-y-4">
        <h2 id="keyword-actions-title" className="text-xl font-semibold text-ink">
          {t('keywords.columns.actions')}
        </h2>
        <div className="flex flex-wrap gap-3">
          {(detail.list === 'unmatched' || detail.list === 'matched') && (
            <>
              <AppLink router={supportRouter} href={newLandingPageHref(detail.term)} className={secondaryButton}>
                {t('keywords.actions.makePage')}
              </AppLink>
              <button type="button" className={secondaryButton} onClick={() => act('ignore')}>
                {t('keywords.actions.ignore')}
              </button>
            </>
          )}
          {detail.list === 'paired' && detail.id !== null && (
            <button type="button" className={secondaryButton} onClick={() => confirm.ask(detail)}>
              {t('keywords.actions.removePair')}
            </button>
          )}
          {detail.list === 'ignored' && detail.id !== null && (
            <button type="button" className={secondaryButton} onClick={() => act('removeIgnore')}>
              {t('keywords.actions.removeIgnore')}
            </button>
          )}
        </div>
        {detail.list !== 'ignored' && <PairForm t={t} term={detail.term} onPaired={onChanged} />}
        {confirm.dialog({
          title: t('keywords.confirm.removePairTitle'),
          body: (item) => t('keywords.confirm.removePairBody', { term: item.term }),
          confirmLabel: t('keywords.actions.removePair'),
          cancelLabel: t('form.cancel'),
          onConfirm: () => act('removePair'),
        })}
      </section>
    </div>
  );
}

/** Searches and those that found nothing per day: a chart to read at a glance (the numbers are in the table). */
function SearchesChart({ t, detail }: { t: TFunction; detail: KeywordDetail }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const days = detail.perDay.map((row) => Date.parse(`${row.day}T12:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
        axes: [{ values: (_u, ticks) => ticks.map((tick) => formatIsoDay(new Date(tick * 1000).toISOString().slice(0, 10)).slice(0, 5)) }, {}],
        series: [
          {},
          { label: t('keywords.columns.searches'), stroke: '#1d4ed8', fill: 'rgba(29, 78, 216, 0.12)', width: 2 },
          { label: t('keywords.columns.noResultsCount'), stroke: '#b91c1c', width: 2, dash: [6, 4] },
        ],
      },
      [days, detail.perDay.map((row) => row.searches), detail.perDay.map((row) => row.noResults)],
      element,
    );
    const resize = () => plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [t, detail]);
  return <div ref={holder} className="mt-3 w-full" role="img" aria-label={t('keywords.chartLabel', { term: detail.term, days: detail.days })} data-keyword-chart />;
}

type PairValues = { Keyword: string; Kind: 'paired'; PairedWith: string; PageUrl: string };
type PairOutput = v.InferOutput<typeof KeywordInsertSchema>;

/** Pair the term with another term (its searches use that term's results) or with a page (the header search leads there). */
function PairForm({ t, term, onPaired }: { t: TFunction; term: string; onPaired: () => void }) {
  const empty: PairValues = { Keyword: term, Kind: 'paired', PairedWith: '', PageUrl: '' };
  const form = useApiForm<PairValues, PairOutput>({
    schema: KeywordInsertSchema as unknown as v.GenericSchema<PairValues, PairOutput>,
    defaultValues: empty,
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const saved = await supportKeywordsApi.insert(values);
      form.reset(empty);
      toast({ title: t('keywords.done.pair', { term, other: saved.pageUrl ?? saved.pairedWith ?? '' }), variant: 'success' });
      onPaired();
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  return (
    <form id="pair" noValidate onSubmit={form.submit} aria-labelledby="keyword-pair-title" className="space-y-4 rounded-xl border border-slate-200 bg-slate-50 p-4">
      <h3 id="keyword-pair-title" className="text-lg font-semibold text-ink">
        {t('keywords.pairTitle')}
      </h3>
      <p className="text-slate-700">{t('keywords.pairIntro')}</p>
      <FormNotice message={noticeText(t, form.notice)} />
      <Field id="keyword-paired-with" label={t('keywords.pairWithTerm')} hint={t('keywords.pairWithTermHint')} error={fieldText(t, errors.PairedWith?.message)}>
        {(control) => <input {...control} {...form.register('PairedWith')} autoComplete="off" maxLength={60} className={controlClass(!!errors.PairedWith, 'min-h-11 max-w-sm')} />}
      </Field>
      <Field id="keyword-page-url" label={t('keywords.pairWithPage')} hint={t('keywords.pairWithPageHint')} error={fieldText(t, errors.PageUrl?.message)}>
        {(control) => <input {...control} {...form.register('PageUrl')} autoComplete="off" maxLength={300} placeholder="/escort/region-hovedstaden/koebenhavn/" className={controlClass(!!errors.PageUrl, 'min-h-11 max-w-lg')} />}
      </Field>
      <button type="submit" className={primaryButton} disabled={isSubmitting}>
        {isSubmitting ? t('form.saving') : t('keywords.actions.pair')}
      </button>
    </form>
  );
}

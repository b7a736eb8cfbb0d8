/**
 * /support/review/ and /support/review-adverts/ (Support): the review queue (GET reviewqueue) in three tabs,
 * links with `?kind=new|changes|media`: new adverts (the default of review/), approved adverts with pending
 * changes (the default of review-adverts/), adverts with pending pictures or videos. Adverts with a risk
 * signal come first (a suspected minor in red, in words), then the one that has waited longest. Each row
 * opens /support/review-adverts/{id}/. Pages of PAGE_SIZE (`?skip=`), kept in the address.
 */
import type { TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import { REVIEW_QUEUE_KINDS, type ReviewQueueAnswer, type ReviewQueueKind } from '#lib/schemas/review.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter, type SupportRoute } from '../routes.ts';
import { Paging } from '../paging.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { RiskFlags } from './review-words.tsx';
import { skipOf } from '../../shared/paging.tsx';

export const PAGE_SIZE = 50;

type QueueRoute = Extract<SupportRoute, 'review' | 'reviewAdverts'>;

/** The queue's address for a route, a kind and a first row (the route's own default kind is left out). */
export function reviewQueueHref(route: QueueRoute, kind: ReviewQueueKind, skip: number): string {
  const query = new URLSearchParams();
  if (kind !== defaultKind(route)) query.set('kind', kind);
  if (skip > 0) query.set('skip', String(skip));
  const search = query.toString();
  return `${supportPath(route)}${search ? `?${search}` : ''}`;
}

const defaultKind = (route: QueueRoute): ReviewQueueKind => (route === 'reviewAdverts' ? 'changes' : 'new');

/** The review page of one advert. */
export const reviewAdvertHref = (advertId: number): string => `${supportPath('reviewAdverts')}${advertId}/`;

export function ReviewQueue({ route, search }: { route: QueueRoute; search: Record<string, string> }) {
  const kind = (REVIEW_QUEUE_KINDS as readonly string[]).includes(search['kind'] ?? '') ? (search['kind'] as ReviewQueueKind) : defaultKind(route);
  const skip = skipOf(search);
  return <QueueList key={`${kind}\n${skip}`} route={route} kind={kind} skip={skip} />;
}

export default function ReviewScreen({ search }: SupportScreenProps) {
  return <ReviewQueue route="review" search={search} />;
}

function QueueList({ route, kind, skip }: { route: QueueRoute; kind: ReviewQueueKind; skip: number }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) => supportApi.reviewQueue({ Kind: kind, Skip: skip, Take: PAGE_SIZE }, signal));
  return (
    <ScreenShell
      id="review-heading"
      title={t(`screens.${route}`)}
      intro={t('review.intro')}
      aside={<Tabs t={t} route={route} kind={kind} />}
      state={state}
      loadError={t('review.loadError')}
      onRetry={reload}
    >
      {(list) => <QueueTable t={t} list={list} route={route} kind={kind} skip={skip} />}
    </ScreenShell>
  );
}

function Tabs({ t, route, kind }: { t: TFunction; route: QueueRoute; kind: ReviewQueueKind }) {
  return (
    <nav aria-label={t('review.tabs')} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {REVIEW_QUEUE_KINDS.map((value) => (
          <li key={value}>
            <AppLink
              router={supportRouter}
              href={reviewQueueHref(route, value, 0)}
              aria-current={value === kind ? 'page' : undefined}
              className={`${smallButton} ${value === kind ? 'border-brand-700 bg-brand-50 font-semibold' : ''}`}
            >
              {t(`review.kind.${value}`)}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const COLUMNS = ['name', 'advertKind', 'city', 'since', 'verified', 'fields', 'media', 'risk'] as const;

function QueueTable({ t, list, route, kind, skip }: { t: TFunction; list: ReviewQueueAnswer; route: QueueRoute; kind: ReviewQueueKind; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t(`review.empty.${kind}`)}</p>;
  return (
    <>
      <div className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t(`review.kind.${kind}`)}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-semibold">
                  {t(`review.columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {list.items.map((item) => {
              const minor = item.risk.includes('minorWords');
              return (
                <tr key={item.advertId} data-advert={item.advertId} className={minor ? 'bg-red-50' : undefined}>
                  <th scope="row" className={`px-3 py-2 font-medium ${minor ? 'border-l-4 border-red-700' : ''}`}>
                    <AppLink router={supportRouter} href={reviewAdvertHref(item.advertId)} className="text-brand-700 underline">
                      {item.name}
                    </AppLink>
                    <span className="block text-xs font-normal text-slate-600">{item.accountEmail}</span>
                  </th>
                  <td className="px-3 py-2 text-slate-800">{t(`review.advertKinds.${item.kind}`, { defaultValue: item.kind })}</td>
                  <td className="px-3 py-2 text-slate-800">{item.city ?? t('review.none')}</td>
                  <td className="whitespace-nowrap px-3 py-2 text-slate-800" data-since>
                    {formatDateTime(item.since)}
                  </td>
                  <td className="px-3 py-2 text-slate-800" data-verified>
                    {item.ageVerified ? t('form.yes') : t('form.no')}
                  </td>
                  <td className="px-3 py-2 text-slate-800">{item.pendingFields.length}</td>
                  <td className="px-3 py-2 text-slate-800">
                    {t('review.mediaCount', { pictures: item.pendingPictures, videos: item.pendingVideos })}
                  </td>
                  <td className="px-3 py-2">
                    <RiskFlags t={t} risk={item.risk} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => reviewQueueHref(route, kind, next)} />
    </>
  );
}

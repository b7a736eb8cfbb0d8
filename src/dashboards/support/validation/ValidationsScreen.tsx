/**
 * /support/validation/ (Support): the verification queue (GET validations). Waiting ones by default,
 * oldest submission first; `?status=decided` shows the decided ones (latest decision first). Risk signals
 * come first in each row, in words (a suspected minor in red). Pages of PAGE_SIZE (`?skip=`); filter and
 * page are in the address so back and reload keep them.
 */
import type { TFunction } from 'i18next';
import { supportApi, type Paged } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import type { ValidationItem } from '#lib/schemas/verification.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { Paging } from '../paging.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { RiskFlags, TestProviderMark, isUrgent, methodText, statusText } from './validation-words.tsx';
import { skipOf } from '../../shared/paging.tsx';

export const PAGE_SIZE = 50;

type Status = 'pending' | 'decided';
const STATUSES: readonly Status[] = ['pending', 'decided'];

/** The queue's address for a filter and a first row. */
export function validationsHref(status: Status, skip: number): string {
  const query = new URLSearchParams();
  if (status !== 'pending') query.set('status', status);
  if (skip > 0) query.set('skip', String(skip));
  const search = query.toString();
  return `${supportPath('validation')}${search ? `?${search}` : ''}`;
}

export default function ValidationsScreen({ search }: SupportScreenProps) {
  const status: Status = search['status'] === 'decided' ? 'decided' : 'pending';
  const skip = skipOf(search);
  return <Queue key={`${status}\n${skip}`} status={status} skip={skip} />;
}

function Queue({ status, skip }: { status: Status; skip: number }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) => supportApi.validations({ Status: status, Skip: skip, Take: PAGE_SIZE }, signal));
  return (
    <ScreenShell
      id="validations-heading"
      title={t('screens.validation')}
      intro={t('validationQueue.intro')}
      aside={<Filter t={t} status={status} />}
      state={state}
      loadError={t('validationQueue.loadError')}
      onRetry={reload}
    >
      {(list) => <Table t={t} list={list} status={status} skip={skip} />}
    </ScreenShell>
  );
}

function Filter({ t, status }: { t: TFunction; status: Status }) {
  return (
    <nav aria-label={t('validationQueue.filter')} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {STATUSES.map((value) => (
          <li key={value}>
            <AppLink
              router={supportRouter}
              href={validationsHref(value, 0)}
              aria-current={value === status ? 'page' : undefined}
              className={`${smallButton} ${value === status ? 'border-brand-700 bg-brand-50 font-semibold' : ''}`}
            >
              {t(`validationQueue.filters.${value}`)}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Table({ t, list, status, skip }: { t: TFunction; list: Paged<ValidationItem>; status: Status; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t(`validationQueue.empty.${status}`)}</p>;
  const columns = ['advert', 'method', 'submitted', status === 'pending' ? 'account' : 'outcome'] as const;
  return (
    <>
      <div className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t(`validationQueue.caption.${status}`)}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-semibold">
                  {t(`validationQueue.columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {list.items.map((item) => (
              <tr key={item.id} data-validation={item.id} className={isUrgent(item.risk) ? 'bg-red-50' : undefined}>
                <th scope="row" className={`px-3 py-2 font-medium ${isUrgent(item.risk) ? 'border-l-4 border-red-700' : ''}`}>
                  <RiskFlags t={t} risk={item.risk} />
                  <AppLink router={supportRouter} href={`${supportPath('validation')}${item.id}/`} className="text-brand-700 underline">
                    {item.advertName ?? t('validationQueue.noAdvert', { id: item.id })}
                  </AppLink>
                </th>
                <td className="px-3 py-2 text-slate-800">
                  {methodText(t, item.method)}
                  <TestProviderMark t={t} item={item} />
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{formatDateTime(item.submittedAt ?? item.createdAt)}</td>
                <td className="px-3 py-2 text-slate-800">
                  {status === 'pending' ? item.accountEmail : `${statusText(t, item.status)}${item.decidedAt ? ` · ${formatDateTime(item.decidedAt)}` : ''}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => validationsHref(status, next)} />
    </>
  );
}

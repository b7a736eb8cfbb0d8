/**
 * /support/appeals/ (Support): advertisers' appeals against statements of reasons (GET appeals), oldest
 * appeal first; open ones by default, `?status=decided` for the decided ones; pages of PAGE_SIZE (`?skip=`).
 * An appeal is decided by another support user than the one who made the decision.
 */
import type { TFunction } from 'i18next';
import { supportApi, type Paged } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import type { AppealItem, AppealsQueryInput } from '#lib/schemas/moderation.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { Paging } from '../paging.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { skipOf } from '../../shared/paging.tsx';

export const PAGE_SIZE = 50;

type Status = AppealsQueryInput['Status'];
const STATUSES: readonly Status[] = ['open', 'decided'];

export function appealsHref(status: Status, skip: number): string {
  const query = new URLSearchParams();
  if (status !== 'open') query.set('status', status);
  if (skip > 0) query.set('skip', String(skip));
  const search = query.toString();
  return `${supportPath('appeals')}${search ? `?${search}` : ''}`;
}

export default function AppealsScreen({ search }: SupportScreenProps) {
  const status = search['status'] === 'decided' ? 'decided' : 'open';
  const skip = skipOf(search);
  return <AppealsList key={`${status}\n${skip}`} status={status} skip={skip} />;
}

function AppealsList({ status, skip }: { status: Status; skip: number }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) => supportApi.appeals({ Status: status, Skip: skip, Take: PAGE_SIZE }, signal));
  return (
    <ScreenShell
      id="appeals-heading"
      title={t('screens.appeals')}
      intro={t('appeals.intro')}
      aside={
        <nav aria-label={t('appeals.filter')} className="mt-4">
          <ul className="flex flex-wrap gap-2">
            {STATUSES.map((value) => (
              <li key={value}>
                <AppLink
                  router={supportRouter}
                  href={appealsHref(value, 0)}
                  aria-current={value === status ? 'page' : undefined}
                  className={`${smallButton} ${value === status ? 'border-brand-700 bg-brand-50 font-semibold' : ''}`}
                >
                  {t(`appeals.status.${value}`)}
                </AppLink>
              </li>
            ))}
          </ul>
        </nav>
      }
      state={state}
      loadError={t('appeals.loadError')}
      onRetry={reload}
    >
      {(list) => <AppealsTable t={t} list={list} status={status} skip={skip} />}
    </ScreenShell>
  );
}

function AppealsTable({ t, list, status, skip }: { t: TFunction; list: Paged<AppealItem>; status: Status; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t(`appeals.empty.${status}`)}</p>;
  return (
    <>
      <div className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('appeals.caption')}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {(['decision', 'advert', 'decidedBy', 'appealedAt', 'outcome'] as const).map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-semibold">
                  {t(`appeals.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {list.items.map((appeal) => (
              <tr key={appeal.id} data-appeal={appeal.id}>
                <th scope="row" className="px-3 py-2 font-medium">
                  <AppLink router={supportRouter} href={`${supportPath('appeals')}${appeal.id}/`} className="text-brand-700 underline">
                    {t(`moderation.statementDecisions.${appeal.decision}`)}
                  </AppLink>
                </th>
                <td className="px-3 py-2 text-slate-800">{appeal.advertName ?? t('appeals.noAdvert')}</td>
                <td className="px-3 py-2 text-slate-800">{appeal.decidedBy?.name || t('appeals.system')}</td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{formatDateTime(appeal.appealedAt)}</td>
                <td className="px-3 py-2 text-slate-800">
                  {appeal.appealDecision ? t(`moderation.appealDecisions.${appeal.appealDecision}`) : t('appeals.awaiting')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => appealsHref(status, next)} />
    </>
  );
}

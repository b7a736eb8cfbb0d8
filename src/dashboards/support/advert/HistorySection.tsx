/**
 * History of adverts/{id}/history/: the audit log about the advert, newest first (GET actionhistories): who
 * (a support user, the advertiser, a support user signed in as the advertiser, the system), what, on what,
 * before and after, why, from which address, when. Read only.
 */
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import { formatDateTime } from '#lib/format.ts';
import type { ActionHistoryItem, AdvertProfile } from '#lib/schemas/support-adverts.ts';
import { SECTION_PAGE_SIZE, SectionData, Table, advertHref, cell } from './advert-sections.tsx';
import { Paging } from '../paging.tsx';

function actorText(t: TFunction, actor: ActionHistoryItem['actor']): string {
  switch (actor.type) {
    case 'support':
      return t('advert.history.actors.support', { name: actor.name });
    case 'impersonation':
      return t('advert.history.actors.impersonation', { name: actor.name });
    default:
      return t(`advert.history.actors.${actor.type}`);
  }
}

/** A before or after value as JSON on one line. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
}

export function HistorySection({ t, advert, skip }: { t: TFunction; advert: AdvertProfile; skip: number }) {
  return (
    <section aria-labelledby="advert-history">
      <h2 id="advert-history" className="text-lg font-semibold text-ink">
        {t('advert.history.title')}
      </h2>
      <p className="mt-1 max-w-prose text-sm text-slate-700">{t('advert.history.intro')}</p>
      <SectionData load={(signal) => supportAdvertsApi.actionHistories(advert.id, { Skip: skip, Take: SECTION_PAGE_SIZE }, signal)} loadError={t('advert.loadSectionError')}>
        {(list) =>
          list.items.length === 0 ? (
            <p className="mt-4 text-slate-700">{t('advert.history.empty')}</p>
          ) : (
            <>
              <Table
                caption={t('advert.history.title')}
                columns={['time', 'actor', 'action', 'target', 'before', 'after', 'reason', 'ip'].map((column) => t(`advert.history.${column}`))}
              >
                {list.items.map((item) => (
                  <tr key={item.id} data-history={item.action} data-actor={item.actor.type}>
                    <td className={`${cell} whitespace-nowrap`}>{formatDateTime(item.createdAt)}</td>
                    <td className={cell}>{actorText(t, item.actor)}</td>
                    <td className={cell}>
                      <span>{t(`advert.history.actions.${item.action.replace(/\./g, '_')}`, { defaultValue: item.action })}</span>
                      <span className="block text-xs text-slate-500">{item.action}</span>
                    </td>
                    <td className={`${cell} whitespace-nowrap`}>{item.targetType ? `${t(`advert.history.targets.${item.targetType}`, { defaultValue: item.targetType })} ${item.targetId ? `#${item.targetId}` : ''}` : ''}</td>
                    <td className={`${cell} max-w-xs break-words font-mono text-xs`}>{valueText(item.before)}</td>
                    <td className={`${cell} max-w-xs break-words font-mono text-xs`}>{valueText(item.after)}</td>
                    <td className={`${cell} max-w-xs whitespace-pre-line break-words`}>{item.reason ?? ''}</td>
                    <td className={`${cell} whitespace-nowrap`}>{item.ip ?? ''}</td>
                  </tr>
                ))}
              </Table>
              <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={SECTION_PAGE_SIZE} href={(next) => advertHref(advert.id, 'history', '', next)} />
            </>
          )
        }
      </SectionData>
    </section>
  );
}

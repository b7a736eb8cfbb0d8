/** Sign-ins of adverts/{id}/sign-ins/: the account's sign-in attempts, newest first (GET loginhistories). */
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import { formatDateTime } from '#lib/format.ts';
import type { AdvertProfile } from '#lib/schemas/support-adverts.ts';
import { SECTION_PAGE_SIZE, SectionData, Table, advertHref, cell } from './advert-sections.tsx';
import { Paging } from '../paging.tsx';

export function SignInsSection({ t, advert, skip }: { t: TFunction; advert: AdvertProfile; skip: number }) {
  return (
    <section aria-labelledby="advert-sign-ins">
      <h2 id="advert-sign-ins" className="text-lg font-semibold text-ink">
        {t('advert.signIns.title')}
      </h2>
      <SectionData load={(signal) => supportAdvertsApi.loginHistories(advert.id, { Skip: skip, Take: SECTION_PAGE_SIZE }, signal)} loadError={t('advert.loadSectionError')}>
        {(list) =>
          list.items.length === 0 ? (
            <p className="mt-4 text-slate-700">{t('advert.signIns.empty')}</p>
          ) : (
            <>
              <Table caption={t('advert.signIns.title')} columns={[t('advert.signIns.time'), t('advert.signIns.outcome'), t('advert.signIns.ip'), t('advert.signIns.device')]}>
                {list.items.map((item) => (
                  <tr key={item.id} data-sign-in={item.success ? 'success' : 'failure'}>
                    <td className={`${cell} whitespace-nowrap`}>{formatDateTime(item.createdAt)}</td>
                    <td className={cell}>{item.success ? t('advert.signIns.success') : t('advert.signIns.failure')}</td>
                    <td className={cell}>{item.ip ?? t('advert.none')}</td>
                    <td className={`${cell} break-all`}>{item.userAgent ?? t('advert.none')}</td>
                  </tr>
                ))}
              </Table>
              <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={SECTION_PAGE_SIZE} href={(next) => advertHref(advert.id, 'sign-ins', '', next)} />
            </>
          )
        }
      </SectionData>
    </section>
  );
}

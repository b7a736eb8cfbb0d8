/**
 * /backend/purchase-history/: the advertiser's orders, newest first, in pages of PAGE_SIZE (the page is in
 * the address, `?skip=`, so reload and back keep it), with their status, date (dd-MM-yyyy), product and
 * total; each opens its receipt page (purchase-history/{id}/).
 */
import { useStore } from '@nanostores/react';
import { formatDate, formatDkk } from '#lib/format.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { Paging, skipOf } from '../../shared/paging.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter } from '../routes.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import type { BackendScreenProps } from '../screen-props.ts';
import { commerceApi } from './api.ts';
import { productNameOf } from '#lib/schemas/commerce.ts';
import { $locale } from '#lib/stores/locale.ts';

/** Orders per page. */
export const PAGE_SIZE = 20;

export const purchaseHref = (id: number) => `${backendPath('purchaseHistory')}${id}/`;

/** The history's address at a first row. */
const historyHref = (skip: number) => `${backendPath('purchaseHistory')}${skip > 0 ? `?skip=${skip}` : ''}`;

export default function PurchaseHistoryScreen(_props: BackendScreenProps) {
  const page = useStore(backendRouter);
  const skip = skipOf(page?.search ?? {});
  return <HistoryPage key={skip} skip={skip} />;
}

function HistoryPage({ skip }: { skip: number }) {
  const t = useAppT(backendI18n);
  const locale = useStore($locale);
  const { state, reload } = useScreenData((signal) => commerceApi.history(signal, { Skip: skip, Take: PAGE_SIZE }));
  return (
    <div className="max-w-4xl">
      <ScreenShell id="purchase-history-heading" title={t('screens.purchaseHistory')} state={state} loadError={t('commerce.history.loadError')} onRetry={reload}>
        {({ total, items }) =>
          total === 0 ? (
            <p className="mt-6 text-slate-800">
              {t('commerce.history.empty')}{' '}
              <AppLink router={backendRouter} href={backendPath('buyAdvertPackage')} className="font-semibold text-brand-700 underline">
                {t('screens.buyAdvertPackage')}
              </AppLink>
            </p>
          ) : (
            <>
              <div className="mt-6 overflow-x-auto">
                <table className="w-full border-collapse text-left text-sm" data-purchase-history>
                  <thead>
                    <tr className="border-b border-slate-300">
                      <th scope="col" className="py-2 pr-4">{t('commerce.history.date')}</th>
                      <th scope="col" className="py-2 pr-4">{t('commerce.history.product')}</th>
                      <th scope="col" className="py-2 pr-4">{t('commerce.history.status')}</th>
                      <th scope="col" className="py-2 pr-4 text-right">{t('commerce.history.total')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((order) => (
                      <tr key={order.id} className="border-b border-slate-200" data-order={order.id}>
                        <td className="py-2 pr-4">{formatDate(order.createdAt)}</td>
                        <td className="py-2 pr-4">
                          <AppLink router={backendRouter} href={purchaseHref(order.id)} className="font-semibold text-brand-700 underline">
                            {productNameOf(order, locale)}
                          </AppLink>
                        </td>
                        <td className="py-2 pr-4">{t(`commerce.status.${order.statusName}`)}</td>
                        <td className="py-2 pr-4 text-right">{formatDkk(order.totalPriceOre)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Paging t={t} router={backendRouter} total={total} count={items.length} skip={skip} pageSize={PAGE_SIZE} href={historyHref} />
            </>
          )
        }
      </ScreenShell>
    </div>
  );
}

/**
 * price-list/: price items (duration, incall and outcall price in DKK incl. VAT), extra price items,
 * services with their types (moderated: what waits for support is shown) and payment options. Price items
 * are reordered by drag and drop or by keyboard (move up / move down buttons, announced in a live region);
 * the new order is saved at once with reorderpricelistitems.
 */
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { priceListApi } from './api.ts';
import { ExtraItemsSection } from './ExtraItemsSection.tsx';
import { PaymentOptionsForm } from './PaymentOptionsForm.tsx';
import { PriceItemsSection } from './PriceItemsSection.tsx';
import { ServicesForm } from './ServicesForm.tsx';

export default function PriceListScreen() {
  const t = useAppT(backendI18n);
  const { state, setData, reload } = useScreenData(priceListApi.load);
  return (
    <ScreenShell id="price-list-screen-heading" title={t('screens.priceList')} intro={t('priceList.intro')} state={state} loadError={t('priceList.loadError')} onRetry={reload}>
      {(data) => (
        <div className="mt-6 space-y-10">
          <PriceItemsSection data={data} onChange={setData} />
          <ExtraItemsSection data={data} onChange={setData} />
          <ServicesForm data={data} onChange={setData} />
          <PaymentOptionsForm data={data} onChange={setData} />
        </div>
      )}
    </ScreenShell>
  );
}

/**
 * /support/products/ (Administration): every product, offered or retired (GET products), with its type, Danish
 * and English names, days, price incl. VAT and the VAT in it, whether it renews and whether it is sold; each
 * opens products/{id}/ to be changed. The screen says that a change is for new purchases only: orders keep
 * the price they were bought at (docs/decisions/025-commerce.md).
 */
import type { TFunction } from 'i18next';
import { supportOrdersApi } from '#lib/api/support-orders.ts';
import { formatDkk } from '#lib/format.ts';
import type { ProductItem } from '#lib/schemas/orders.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { ScreenShell } from '../screen-data.tsx';
import { Table, cell } from '../advert/advert-sections.tsx';

/** The address of one product's screen. */
export const productHref = (id: number) => `${supportPath('products')}${id}/`;

/** Sold or retired, as a badge. */
export function ProductStatus({ t, product }: { t: TFunction; product: ProductItem }) {
  return product.active ? (
    <span className="rounded bg-green-100 px-1.5 text-xs font-semibold text-green-900">{t('products.sold')}</span>
  ) : (
    <span className="rounded bg-slate-200 px-1.5 text-xs font-semibold text-slate-800">{t('products.retired')}</span>
  );
}

export default function ProductsScreen() {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) => supportOrdersApi.products(signal));
  return (
    <ScreenShell id="products-heading" title={t('screens.products')} intro={t('products.intro')} state={state} loadError={t('products.loadError')} onRetry={reload}>
      {(products) => (products.length === 0 ? <p className="mt-6 text-slate-700">{t('products.empty')}</p> : <ProductsTable t={t} products={products} />)}
    </ScreenShell>
  );
}

function ProductsTable({ t, products }: { t: TFunction; products: ProductItem[] }) {
  const columns = (['name', 'type', 'days', 'price', 'vat', 'renews', 'status'] as const).map((column) => t(`products.columns.${column}`));
  return (
    <Table caption={t('products.caption')} columns={columns}>
      {products.map((product) => (
        <tr key={product.id} data-product={product.code}>
          <th scope="row" className="px-3 py-2 font-medium">
            <AppLink router={supportRouter} href={productHref(product.id)} aria-label={t('products.edit', { name: product.nameDa })} className="text-brand-700 underline">
              {product.nameDa}
            </AppLink>
            <span className="block font-normal text-slate-700" lang="en">
              {product.nameEn}
            </span>
          </th>
          <td className={cell}>{t(`products.types.${product.type}`, { defaultValue: String(product.type) })}</td>
          <td className={`${cell} text-right`}>{product.days}</td>
          <td className={`${cell} whitespace-nowrap text-right`} data-price>
            {formatDkk(product.priceOre)}
          </td>
          <td className={`${cell} whitespace-nowrap text-right`}>{formatDkk(product.vatOre)}</td>
          <td className={cell}>{product.recurring ? t('products.renews') : t('products.once')}</td>
          <td className={cell}>
            <ProductStatus t={t} product={product} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

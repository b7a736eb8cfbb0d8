/**
 * /support/orders/ (Support): find orders by the spec's fields (order number, transaction id, advert number,
 * product, amount) plus status, a period of creation and "to be refunded" (the orders flagged for refund:
 * payments support must give back) (GET orders; every key given must match), newest
 * first, in pages of PAGE_SIZE. The search and the page are in the address, so reload and back keep them;
 * each row opens orders/{id}/. Below, the bookkeeper's CSV files for a period (plain downloads).
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { bookkeepingCsvHref, supportOrdersApi } from '#lib/api/support-orders.ts';
import type { Paged } from '#lib/api/support.ts';
import { dayFieldText, formatDateTime, formatDkk, parseDay, thisMonthSoFar } from '#lib/format.ts';
import { ORDER_STATUS_VALUES, SupportOrdersQuerySchema, type SupportOrderItem } from '#lib/schemas/orders.ts';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { DayInput } from '../../../components/form/DayInput.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { smallButton } from '../../shared/form-text.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { SearchForm, useSearchedPage, searchHref, searchOf, type ListSearch, type SearchQuery } from '../list-search.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { SECTION_PAGE_SIZE, Table, cell } from '../advert/advert-sections.tsx';
import { Paging } from '../paging.tsx';

/** Rows per page (the shared Paging moves by this many). */
export const PAGE_SIZE = SECTION_PAGE_SIZE;

type Key = 'id' | 'transactionId' | 'profileId' | 'productDescription' | 'totalPrice' | 'status' | 'from' | 'to' | 'refundFlagged';
type Query = SearchQuery<Key>;
const SEARCH: ListSearch<Key> = {
  name: 'orders',
  keys: ['id', 'transactionId', 'profileId', 'productDescription', 'totalPrice', 'status', 'from', 'to', 'refundFlagged'],
  fields: {
    id: 'Id',
    transactionId: 'TransactionId',
    profileId: 'ProfileId',
    productDescription: 'ProductDescription',
    totalPrice: 'TotalPrice',
    status: 'Status',
    from: 'From',
    to: 'To',
    refundFlagged: 'RefundFlagged',
  },
  schema: SupportOrdersQuerySchema,
  path: supportPath('orders'),
  days: ['from', 'to'],
};

/** The choices of the two selects: value and catalog key. */
const STATUS_CHOICES = [['', 'orders.search.anyStatus'], ...ORDER_STATUS_VALUES.map((status) => [String(status), `orders.status.${status}`])] as const;
const FLAG_CHOICES = [
  ['', 'orders.search.anyOrder'],
  ['true', 'orders.search.onlyFlagged'],
] as const;

/** The list's address for a search and a first row. */
export const ordersHref = (query: Query, skip: number): string => searchHref(SEARCH, query, skip);

export default function OrdersScreen({ search }: SupportScreenProps) {
  const { query, skip } = searchOf(SEARCH, search);
  return <OrdersList key={ordersHref(query, skip)} query={query} skip={skip} />;
}

function OrdersList({ query, skip }: { query: Query; skip: number }) {
  const t = useAppT(supportI18n);
  const { invalid, state, reload } = useSearchedPage(SEARCH, query, { skip, take: PAGE_SIZE }, (body, signal) => supportOrdersApi.orders(body, signal));
  return (
    <ScreenShell
      id="orders-heading"
      title={t('screens.orders')}
      intro={t('orders.intro')}
      aside={
        <SearchForm
          t={t}
          search={SEARCH}
          query={query}
          initialErrors={invalid ?? {}}
          columns="lg:grid-cols-4 lg:items-start"
          buttonsClassName="flex items-end gap-2 sm:col-span-2 lg:col-span-4"
          control={(key, { value, onChange, hasError, ...control }) =>
            key === 'status' || key === 'refundFlagged' ? (
              <select {...control} value={value} onChange={(e) => onChange(e.target.value)} className={controlClass(hasError, 'h-11 w-full')}>
                {(key === 'status' ? STATUS_CHOICES : FLAG_CHOICES).map(([choice, label]) => (
                  <option key={choice} value={choice}>
                    {t(label)}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...control}
                type="search"
                inputMode={key === 'id' || key === 'profileId' ? 'numeric' : key === 'totalPrice' ? 'decimal' : undefined}
                value={value}
                onChange={(e) => onChange(e.target.value)}
                maxLength={200}
                className={controlClass(hasError, 'h-11 w-full')}
              />
            )
          }
        />
      }
      state={state}
      loadError={t('orders.loadError')}
      onRetry={reload}
    >
      {(list) => (
        <>
          {invalid ? null : <OrdersTable t={t} list={list} query={query} skip={skip} />}
          <BookkeepingExport t={t} />
        </>
      )}
    </ScreenShell>
  );
}

function OrdersTable({ t, list, query, skip }: { t: TFunction; list: Paged<SupportOrderItem>; query: Query; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t('orders.empty')}</p>;
  const columns = (['id', 'date', 'profile', 'product', 'total', 'status', 'transactionId', 'receipt'] as const).map((column) => t(`orders.columns.${column}`));
  return (
    <>
      <Table caption={t('orders.caption')} columns={columns}>
        {list.items.map((order) => (
          <tr key={order.id} data-order={order.id}>
            <th scope="row" className="px-3 py-2 font-medium">
              <AppLink router={supportRouter} href={`${supportPath('orders')}${order.id}/`} aria-label={t('orders.orderLink', { id: order.id })} className="text-brand-700 underline">
                {order.id}
              </AppLink>
            </th>
            <td className={`${cell} whitespace-nowrap`}>{formatDateTime(order.createdAt)}</td>
            <td className={cell}>
              {order.profileId === null ? (
                '–'
              ) : (
                <AppLink router={supportRouter} href={`${supportPath('adverts')}${order.profileId}/`} aria-label={t('orders.advertLink', { id: order.profileId })} className="text-brand-700 underline">
                  {order.profileId}
                </AppLink>
              )}
            </td>
            <td className={cell}>{order.productDescription}</td>
            <td className={`${cell} whitespace-nowrap text-right`}>{formatDkk(order.totalPriceOre)}</td>
            <td className={cell}>
              {t(`orders.status.${order.status}`, { defaultValue: String(order.status) })}
              {order.refundFlagged ? <span className="ml-2 rounded bg-red-100 px-1.5 text-xs font-semibold text-red-800">{t('orders.refundFlagged')}</span> : null}
            </td>
            <td className={`${cell} break-all`}>{order.transactionId ?? '–'}</td>
            <td className={cell}>{order.receiptNumber === null ? '–' : String(order.receiptNumber).padStart(6, '0')}</td>
          </tr>
        ))}
      </Table>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => ordersHref(query, next)} />
    </>
  );
}

/** This month so far on the Copenhagen calendar, as the fields show it (dd-mm-yyyy). */
function defaultPeriod() {
  const { from, to } = thisMonthSoFar();
  return { from: dayFieldText(from), to: dayFieldText(to) };
}

function BookkeepingExport({ t }: { t: TFunction }) {
  const [period, setPeriod] = useState(defaultPeriod);
  const days = { from: parseDay(period.from), to: parseDay(period.to) };
  const complete = Boolean(days.from && days.to && days.from <= days.to);
  return (
    <section aria-labelledby="orders-export" className="mt-10 rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="orders-export" className="text-lg font-semibold text-ink">
        {t('orders.export.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('orders.export.intro')}</p>
      <div className="mt-3 flex flex-wrap items-end gap-4">
        {(['from', 'to'] as const).map((key) => (
          <Field key={key} id={`orders-export-${key}`} label={t(`orders.export.${key}`)}>
            {(control) => (
              <DayInput
                {...control}
                placeholder={t('dayField.placeholder')}
                value={period[key]}
                onChange={(e) => setPeriod({ ...period, [key]: e.target.value })}
                className={controlClass(false, 'h-11')}
              />
            )}
          </Field>
        ))}
        {(['ordersvatcsv', 'orderdocumentscsv'] as const).map((file) =>
          complete ? (
            <a key={file} href={bookkeepingCsvHref(file, { from: days.from!, to: days.to! })} download className={smallButton}>
              {t(file === 'ordersvatcsv' ? 'orders.export.byMonth' : 'orders.export.byDocument')}
            </a>
          ) : null,
        )}
      </div>
    </section>
  );
}

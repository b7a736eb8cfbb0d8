/**
 * /support/orders/{id}/ (Support): one order (GET order) with what was bought, for how much and how it
 * was paid, its status changes, the payment provider's messages as they were received (raw), and its
 * sales documents with their PDFs (GET orderdocument), and the status change of a paid order (POST
 * orderstatus: refunded or charged back with a reason; StatusChangeForm.tsx).
 */
import { useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { supportOrdersApi } from '#lib/api/support-orders.ts';
import { formatDate, formatDateTime, formatDkk } from '#lib/format.ts';
import type { SupportOrderDetail } from '#lib/schemas/orders.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { Facts, ItemScreen, itemLoader } from '../item-screen.tsx';
import { Table, cell } from '../advert/advert-sections.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { FormNotice } from '../../../components/form/Field.tsx';
import { StatusChange } from './StatusChangeForm.tsx';

export default function OrderScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <OrderLoader key={id} id={id} />;
}

function OrderLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const [changed, setChanged] = useState<'changed' | 'alreadyChanged' | null>(null);
  const { state, reload } = useScreenData<SupportOrderDetail | 'notFound'>(itemLoader(id, (orderId, signal) => supportOrdersApi.order(orderId, signal)));
  const title = state.status === 'ready' && state.data !== 'notFound' ? t('order.title', { id: state.data.id }) : t('screens.order');
  return (
    <ItemScreen
      width="max-w-5xl"
      catalog="order"
      list='orders'
      title={title}
      state={state}
      onRetry={reload}
    >
      {(order) => (
        <div className="mt-6 space-y-8">
          <OrderFacts t={t} order={order} />
          <FormNotice message={changed ? t(`order.statusChange.${changed}`) : null} tone={changed === 'changed' ? 'success' : 'error'} />
          <StatusChange
            t={t}
            order={order}
            onChanged={(how) => {
              setChanged(how);
              reload();
            }}
          />
          <Documents t={t} order={order} />
          <Events t={t} order={order} />
          <Postbacks t={t} order={order} />
        </div>
      )}
    </ItemScreen>
  );
}

function OrderFacts({ t, order }: { t: TFunction; order: SupportOrderDetail }) {
  const none = t('order.facts.none');
  const period = order.periodStart || order.periodEnd ? `${order.periodStart ? formatDate(order.periodStart) : ''} – ${order.periodEnd ? formatDate(order.periodEnd) : ''}` : none;
  const rows: [string, ReactNode][] = [
    [t('order.facts.status'), t(`orders.status.${order.status}`, { defaultValue: String(order.status) })],
    [t('order.facts.product'), order.productDescription],
    [t('order.facts.days'), String(order.days)],
    [t('order.facts.total'), formatDkk(order.totalPriceOre)],
    [t('order.facts.vat'), formatDkk(order.vatOre)],
    [t('order.facts.created'), formatDateTime(order.createdAt)],
    [t('order.facts.paid'), order.paidAt ? formatDateTime(order.paidAt) : none],
    [t('order.facts.period'), period],
    [
      t('order.facts.advert'),
      order.profileId === null ? (
        none
      ) : (
        <AppLink router={supportRouter} href={`${supportPath('adverts')}${order.profileId}/`} className="text-brand-700 underline">
          {order.advertName ? `${order.advertName} (${order.profileId})` : String(order.profileId)}
        </AppLink>
      ),
    ],
    [t('order.facts.account'), order.accountEmail ?? String(order.accountId)],
    [t('order.facts.payment'), [order.paymentMethod, order.paymentProvider].filter(Boolean).join(' · ') || none],
    [t('order.facts.transactionId'), order.transactionId ?? none],
    [t('order.facts.referenceId'), order.referenceId ?? none],
    [t('order.facts.language'), order.locale],
  ];
  if (order.refundFlaggedAt) {
    // A reason code worded in the screen's language (an older order may hold plain text: shown as it is).
    const reason = order.refundFlagReason ? t(`order.flagReasons.${order.refundFlagReason}`, { defaultValue: order.refundFlagReason }) : '';
    rows.push([t('order.facts.refundFlag'), `${formatDateTime(order.refundFlaggedAt)}: ${reason}`]);
  }
  return (
    <section aria-labelledby="order-facts" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="order-facts" className="text-lg font-semibold text-ink">
        {t('order.facts.title')}
      </h2>
      <Facts rows={rows} />
    </section>
  );
}

function Documents({ t, order }: { t: TFunction; order: SupportOrderDetail }) {
  return (
    <section aria-labelledby="order-documents">
      <h2 id="order-documents" className="text-lg font-semibold text-ink">
        {t('order.documents.title')}
      </h2>
      {order.documents.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('order.documents.empty')}</p>
      ) : (
        <Table caption={t('order.documents.caption')} columns={(['number', 'kind', 'date', 'total', 'refersTo', 'pdf'] as const).map((c) => t(`order.documents.${c}`))}>
          {order.documents.map((document) => (
            <tr key={document.id} data-document={document.number}>
              <th scope="row" className="px-3 py-2 font-medium">
                {document.numberText}
              </th>
              <td className={cell}>{t(`order.documents.kinds.${document.kind}`)}</td>
              <td className={`${cell} whitespace-nowrap`}>{formatDate(document.issuedAt)}</td>
              <td className={`${cell} whitespace-nowrap text-right`}>{formatDkk(document.kind === 'credit_note' ? -document.totalOre : document.totalOre)}</td>
              <td className={cell}>{document.refersTo ? String(document.refersTo.number).padStart(6, '0') : '–'}</td>
              <td className={`${cell} whitespace-nowrap`}>
                <a href={document.pdfUrl} download className="text-brand-700 underline">
                  {t('order.documents.download')}
                  <span className="sr-only"> {document.numberText}</span>
                </a>
                {document.locale === 'en' ? null : (
                  <>
                    {' · '}
                    <a href={`${document.pdfUrl}&Locale=en`} download className="text-brand-700 underline" lang="en">
                      {t('order.documents.downloadEn')}
                      <span className="sr-only"> {document.numberText}</span>
                    </a>
                  </>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

function Events({ t, order }: { t: TFunction; order: SupportOrderDetail }) {
  const status = (value: number | null) => (value === null ? '–' : t(`orders.status.${value}`, { defaultValue: String(value) }));
  return (
    <section aria-labelledby="order-events">
      <h2 id="order-events" className="text-lg font-semibold text-ink">
        {t('order.events.title')}
      </h2>
      {order.events.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('order.events.empty')}</p>
      ) : (
        <Table caption={t('order.events.caption')} columns={(['when', 'from', 'to', 'by', 'reason'] as const).map((c) => t(`order.events.${c}`))}>
          {order.events.map((event) => (
            <tr key={event.id}>
              <td className={`${cell} whitespace-nowrap`}>{formatDateTime(event.createdAt)}</td>
              <td className={cell}>{status(event.fromStatus)}</td>
              <td className={cell}>{status(event.toStatus)}</td>
              <td className={cell}>
                {t(`order.events.actors.${event.actorType}`, { defaultValue: event.actorType })}
                {event.actorId === null ? '' : ` #${event.actorId}`}
              </td>
              <td className={`${cell} whitespace-pre-line`}>{event.reason ?? '–'}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

function Postbacks({ t, order }: { t: TFunction; order: SupportOrderDetail }) {
  return (
    <section aria-labelledby="order-postbacks">
      <h2 id="order-postbacks" className="text-lg font-semibold text-ink">
        {t('order.postbacks.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('order.postbacks.intro')}</p>
      {order.paymentEvents.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('order.postbacks.empty')}</p>
      ) : (
        <Table caption={t('order.postbacks.caption')} columns={(['received', 'provider', 'kind', 'outcome', 'raw'] as const).map((c) => t(`order.postbacks.${c}`))}>
          {order.paymentEvents.map((event) => (
            <tr key={event.id}>
              <td className={`${cell} whitespace-nowrap`}>{formatDateTime(event.receivedAt)}</td>
              <td className={cell}>{event.provider}</td>
              <td className={cell}>{event.kind ?? '–'}</td>
              <td className={cell}>
                {event.outcome}
                {event.reason ? `: ${event.reason}` : ''}
              </td>
              <td className={cell}>
                <pre className="max-w-xl whitespace-pre-wrap break-all font-mono text-xs">
                  {[`${event.method} ${event.eventKey}`, event.rawQuery, event.rawBody, event.signature ? `signature: ${event.signature}` : ''].filter(Boolean).join('\n')}
                </pre>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

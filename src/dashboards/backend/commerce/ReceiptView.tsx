/**
 * One order's receipt page (promotion/receipt/{orderId}/ and purchase-history/{id}/): what was bought, for
 * which period, the status, the sales documents (receipt, full invoice, credit notes) with their PDFs in
 * Danish and English, and the form to ask for a full invoice (name, address, zip/city). An order not yet
 * paid shows 'Payment is still processing…' until purchaseitem says how it ended.
 */
import { useState } from 'react';
import type * as v from 'valibot';
import type { TFunction } from 'i18next';
import { purchaseReceiptsApi } from '#lib/api/purchase-receipts.ts';
import { formatDate, formatDkk } from '#lib/format.ts';
import { FullInvoiceRequestSchema, type PurchaseReceiptAnswer, type SalesDocumentAnswer } from '#lib/schemas/orders.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter } from '../routes.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { PaymentStatus } from './PaymentStatus.tsx';
import { useStore } from '@nanostores/react';
import { productNameOf } from '#lib/schemas/commerce.ts';
import { $locale } from '#lib/stores/locale.ts';

const STATUS_NAMES: Record<number, string> = { 0: 'Created', 1: 'Paid', 2: 'Failed', 3: 'Expired', 4: 'Refunded', 5: 'ChargedBack', 6: 'Pending' };
const cardClass = 'rounded-xl border border-slate-200 bg-white p-5';

export function ReceiptView({ orderId, titleKey }: { orderId: number; titleKey: 'screens.promotionReceipt' | 'screens.purchaseHistoryItem' }) {
  const t = useAppT(backendI18n);
  const { state, reload, setData } = useScreenData((signal) => purchaseReceiptsApi.receipt(orderId, signal));
  return (
    <div className="max-w-3xl">
      <ScreenShell id="receipt-heading" title={t(titleKey)} state={state} loadError={t('commerce.receipt.loadError')} onRetry={reload}>
        {(answer) => (
          <>
            {/* Not paid yet (the provider's return can come before its postback): wait for it, then load again. */}
            {answer.order.status === 0 || answer.order.status === 6 ? (
              <div className="mt-4">
                <PaymentStatus orderId={orderId} t={t} onPaid={reload} />
              </div>
            ) : null}
            <Receipt answer={answer} t={t} onInvoice={(document) => setData({ ...answer, canRequestInvoice: false, documents: [...answer.documents, document] })} />
          </>
        )}
      </ScreenShell>
      <p className="mt-6">
        <AppLink router={backendRouter} href={backendPath('purchaseHistory')} className="font-semibold text-brand-700 underline">
          {t('commerce.receipt.allPurchases')}
        </AppLink>
      </p>
    </div>
  );
}

function Receipt({ answer, t, onInvoice }: { answer: PurchaseReceiptAnswer; t: TFunction; onInvoice: (document: SalesDocumentAnswer) => void }) {
  const { order } = answer;
  const locale = useStore($locale);
  return (
    <div className="mt-6 space-y-6">
      <section aria-labelledby="order-title" className={cardClass} data-receipt-order>
        <h2 id="order-title" className="text-lg font-semibold text-ink">
          {productNameOf(order, locale)}
        </h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800">
          <dt className="font-medium">{t('commerce.history.status')}</dt>
          <dd data-receipt-status>{t(`commerce.status.${STATUS_NAMES[order.status] ?? 'Created'}`)}</dd>
          <dt className="font-medium">{t('commerce.history.date')}</dt>
          <dd>{formatDate(order.paidAt ?? order.createdAt)}</dd>
          {order.periodStart && order.periodEnd ? (
            <>
              <dt className="font-medium">{t('commerce.length')}</dt>
              <dd>{`${formatDate(order.periodStart)} – ${formatDate(order.periodEnd)}`}</dd>
            </>
          ) : null}
          <dt className="font-medium">{t('commerce.history.total')}</dt>
          <dd data-receipt-total>{t('commerce.priceWithVat', { price: formatDkk(order.totalPriceOre), vat: formatDkk(order.vatOre) })}</dd>
        </dl>
      </section>
      <section aria-labelledby="documents-title" className={cardClass}>
        <h2 id="documents-title" className="text-lg font-semibold text-ink">
          {t('commerce.receipt.documents')}
        </h2>
        {answer.documents.length === 0 ? <p className="mt-2 text-slate-800">{t('commerce.receipt.noDocuments')}</p> : null}
        <ul className="mt-3 space-y-3">
          {answer.documents.map((document) => (
            <li key={document.id} data-document={document.kind}>
              <p className="font-medium text-ink">
                {t(`commerce.receipt.kinds.${document.kind}`)} {t('commerce.receipt.number', { number: document.numberText })} · {formatDate(document.issuedAt)} ·{' '}
                {formatDkk(document.kind === 'credit_note' ? -document.totalOre : document.totalOre)}
              </p>
              <p className="text-sm">
                <a href={`${document.pdfUrl}&Locale=da`} download className="font-semibold text-brand-700 underline">
                  {t('commerce.receipt.pdfDa')}
                </a>
                {' · '}
                <a href={`${document.pdfUrl}&Locale=en`} download className="font-semibold text-brand-700 underline">
                  {t('commerce.receipt.pdfEn')}
                </a>
              </p>
            </li>
          ))}
        </ul>
      </section>
      {answer.canRequestInvoice ? <InvoiceRequest orderId={order.id} t={t} onInvoice={onInvoice} /> : null}
    </div>
  );
}

function InvoiceRequest({ orderId, t, onInvoice }: { orderId: number; t: TFunction; onInvoice: (document: SalesDocumentAnswer) => void }) {
  const [open, setOpen] = useState(false);
  const form = useApiForm<v.InferInput<typeof FullInvoiceRequestSchema>, v.InferOutput<typeof FullInvoiceRequestSchema>>({
    schema: FullInvoiceRequestSchema,
    defaultValues: { Id: orderId, Name: '', Address: '', ZipCity: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const answer = await purchaseReceiptsApi.requestInvoice(values);
      toast({ title: t('commerce.receipt.invoiceMade'), variant: 'success' });
      onInvoice(answer.document);
    },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  return (
    <section aria-labelledby="invoice-title" className={cardClass}>
      <h2 id="invoice-title" className="text-lg font-semibold text-ink">
        {t('commerce.receipt.invoiceTitle')}
      </h2>
      <p className="mt-2 text-slate-800">{t('commerce.receipt.invoiceExplain')}</p>
      {open ? (
        <form onSubmit={form.submit} noValidate className="mt-4 space-y-4">
          <FormNotice message={noticeText(t, form.notice)} />
          <Field id="invoice-name" label={t('commerce.receipt.name')} required error={fieldText(t, errors.Name?.message)}>
            {(c) => <input {...c} {...register('Name')} autoComplete="name" className={controlClass(!!errors.Name, 'h-11')} />}
          </Field>
          <Field id="invoice-address" label={t('commerce.receipt.address')} required error={fieldText(t, errors.Address?.message)}>
            {(c) => <input {...c} {...register('Address')} autoComplete="street-address" className={controlClass(!!errors.Address, 'h-11')} />}
          </Field>
          <Field id="invoice-zip-city" label={t('commerce.receipt.zipCity')} required error={fieldText(t, errors.ZipCity?.message)}>
            {(c) => <input {...c} {...register('ZipCity')} className={controlClass(!!errors.ZipCity, 'h-11 max-w-sm')} />}
          </Field>
          <button type="submit" className={primaryButton} disabled={isSubmitting}>
            {t('commerce.receipt.invoiceSubmit')}
          </button>
        </form>
      ) : (
        <button type="button" className={`${primaryButton} mt-4`} onClick={() => setOpen(true)}>
          {t('commerce.receipt.invoiceOpen')}
        </button>
      )}
    </section>
  );
}

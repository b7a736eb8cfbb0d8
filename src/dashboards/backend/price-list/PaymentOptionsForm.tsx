/** The payment options the advertiser accepts: cash, credit card, MobilePay, PayPal, Revolut, Wise. */
import type * as v from 'valibot';
import { PAYMENT_OPTIONS, UpdatePaymentOptionsSchema } from '#lib/schemas/advert-edit.ts';
import { toast } from '#lib/stores/toasts.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { priceListApi, type PriceService } from './api.ts';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';

type Props = { data: PriceService; onChange: (data: PriceService) => void };
type PaymentValues = { PaymentOptions: string[] };
type PaymentOutput = v.InferOutput<typeof UpdatePaymentOptionsSchema>;

const chosen = (data: PriceService): string[] => data.paymentOptions.filter((p) => p.selected).map((p) => p.code);

export function PaymentOptionsForm({ data, onChange }: Props) {
  const t = useAppT(backendI18n);
  const form = useApiForm<PaymentValues, PaymentOutput>({
    schema: UpdatePaymentOptionsSchema as unknown as v.GenericSchema<PaymentValues, PaymentOutput>,
    defaultValues: { PaymentOptions: chosen(data) },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const answer = await priceListApi.savePaymentOptions(values.PaymentOptions);
      form.reset({ PaymentOptions: chosen(answer) });
      onChange(answer);
      toast({ title: t('form.saved'), variant: 'success' });
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const error = fieldText(t, errors.PaymentOptions?.message);

  return (
    <form noValidate onSubmit={form.submit} className="space-y-4">
      <FormNotice message={noticeText(t, form.notice)} />
      <fieldset className="rounded-xl border border-slate-200 bg-white p-4">
        <legend className="px-1 text-xl font-semibold text-ink">{t('priceList.paymentOptions')}</legend>
        <ul className="mt-2 grid gap-2 sm:grid-cols-3">
          {PAYMENT_OPTIONS.map((code) => (
            <li key={code} className="flex items-center gap-3">
              <input type="checkbox" id={`payment-${code}`} value={code} className="size-5" {...form.register('PaymentOptions')} />
              <label htmlFor={`payment-${code}`} className="text-sm text-ink">
                {t(`common:advert.payment_${code}`)}
              </label>
            </li>
          ))}
        </ul>
        {error ? <p className="mt-2 text-sm text-red-700">{error}</p> : null}
      </fieldset>
      <button type="submit" className={primaryButton} disabled={isSubmitting}>
        {isSubmitting ? t('form.saving') : t('priceList.savePaymentOptions')}
      </button>
    </form>
  );
}

/**
 * The status change of /support/orders/{id}/ (POST orderstatus): a paid order marked refunded or charged
 * back, with a reason (on the order's history, the credit note and the audit), after a confirmation that
 * says what happens (a credit note for the whole amount, the time left taken back, the advertiser told).
 * Sent the way every support decision is (sendDecision): done, the screen reloads the order (its new
 * status, the credit note with its PDF); changed meanwhile (409 `alreadyDecided`), the screen says so and
 * reloads; any other refusal stays on the form with what was typed.
 */
import type { TFunction } from 'i18next';
import { supportOrdersApi } from '#lib/api/support-orders.ts';
import { formatDkk } from '#lib/format.ts';
import { ORDER_STATUS_CHANGES, OrderStatusChangeSchema, type OrderStatusChangeInput, type SupportOrderDetail } from '#lib/schemas/orders.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { SendConfirmation, useSendConfirmation } from '../../shared/confirm-before-sending.tsx';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { DecisionRadios, ReasonField } from '../decision-fields.tsx';
import { sendDecision } from '../decision-submit.ts';

/** Order status Paid (domain/commerce/order-status.ts): the only status support may change. */
const PAID = 1;

type Props = {
  t: TFunction;
  order: SupportOrderDetail;
  /** The status was changed (here, or by someone else meanwhile): reload the order. */
  onChanged: (how: 'changed' | 'alreadyChanged') => void;
};

export function StatusChange({ t, order, onChanged }: Props) {
  return (
    <section aria-labelledby="order-status-change" className="rounded-xl border border-slate-200 bg-white p-5" data-testid="order-status-change">
      <h2 id="order-status-change" className="text-lg font-semibold text-ink">
        {t('order.statusChange.title')}
      </h2>
      {order.status === PAID ? <StatusChangeForm t={t} order={order} onChanged={onChanged} /> : <p className="mt-1 text-sm text-slate-700">{t('order.statusChange.notPaid')}</p>}
    </section>
  );
}

function StatusChangeForm({ t, order, onChanged }: Props) {
  const question = useSendConfirmation<OrderStatusChangeInput>();
  const form = useApiForm({
    schema: OrderStatusChangeSchema,
    defaultValues: { Id: order.id, Reason: '' },
    onUnauthorized: goToLogin,
    onValid: async (values: OrderStatusChangeInput) => {
      if (!question.mayProceed(values)) return;
      await sendDecision(form, values, () => supportOrdersApi.changeStatus(values), {
        onDecided: () => onChanged('changed'),
        onAlreadyDecided: () => onChanged('alreadyChanged'),
      });
    },
  });
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  return (
    <form noValidate onSubmit={form.submit} className="mt-4 space-y-5">
      <p className="text-sm text-slate-700">{t('order.statusChange.text')}</p>
      <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
      <DecisionRadios
        id="order-status"
        legend={t('order.statusChange.status')}
        choices={ORDER_STATUS_CHANGES}
        label={(value) => t(`order.statusChange.choices.${value}`)}
        help={(value) => t(`order.statusChange.choiceHelp.${value}`)}
        field={register('Status', { onChange: question.cancel })}
        error={fieldText(t, errors.Status?.message)}
      />
      <ReasonField
        id="order-status-reason"
        label={t('order.statusChange.reason')}
        hint={t('order.statusChange.reasonHint')}
        rows={3}
        field={register('Reason', { onChange: question.cancel })}
        error={fieldText(t, errors.Reason?.message)}
      />
      {question.asking ? (
        <SendConfirmation
          id="order-status-confirm"
          text={t(`order.statusChange.confirmText.${question.asking.Status}`, { id: order.id, amount: formatDkk(order.totalPriceOre) })}
          confirmLabel={t('order.statusChange.confirm')}
          busyLabel={t('order.statusChange.sending')}
          cancelLabel={t('order.statusChange.cancel')}
          busy={isSubmitting}
          onConfirm={() => question.confirm(form.submit)}
          onCancel={question.cancel}
        />
      ) : (
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {t('order.statusChange.submit')}
        </button>
      )}
    </form>
  );
}

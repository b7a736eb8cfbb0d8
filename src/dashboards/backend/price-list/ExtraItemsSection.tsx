/** Extra price items (e.g. "Overnatning"): a description and a price in DKK incl. VAT; added, changed and deleted. */
import { useState } from 'react';
import type * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { UpdateExtraPriceItemSchema } from '#lib/schemas/advert-edit.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useConfirmation } from '../../shared/use-confirmation.tsx';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { oreToDkk, oreToField, priceListApi, type ExtraPriceItem, type PriceService } from './api.ts';
import { fieldText, noticeText, primaryButton, reportFailure, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { Price } from './Price.tsx';

type Props = { data: PriceService; onChange: (data: PriceService) => void };

export function ExtraItemsSection({ data, onChange }: Props) {
  const t = useAppT(backendI18n);
  const [editing, setEditing] = useState<ExtraPriceItem | null>(null);
  const confirmDelete = useConfirmation<ExtraPriceItem>();

  async function remove(item: ExtraPriceItem) {
    try {
      onChange(await priceListApi.deleteExtraItem(item.id));
      if (editing?.id === item.id) setEditing(null);
      toast({ title: t('priceList.deleted'), variant: 'success' });
    } catch (error) {
      reportFailure(t, error);
    }
  }

  return (
    <section aria-labelledby="extra-items-title">
      <h2 id="extra-items-title" className="text-xl font-semibold text-ink">
        {t('priceList.extraItems')}
      </h2>
      <p className="mt-1 max-w-prose text-sm text-slate-700">{t('priceList.extraItemsHelp')}</p>
      {data.extraPriceItems.length === 0 ? (
        <p className="mt-4 text-slate-700">{t('priceList.noExtraItems')}</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" aria-label={t('priceList.extraItems')}>
          {data.extraPriceItems.map((item) => (
            <li key={item.id} data-extra-item={item.id} className="flex flex-wrap items-center gap-3 p-3">
              <div className="min-w-48 flex-1">
                <p className="font-semibold text-ink">{item.description}</p>
                <p className="text-sm text-slate-700">
                  <Price ore={item.priceOre} />
                </p>
              </div>
              <div className="flex gap-2">
                <button type="button" className={smallButton} aria-label={t('priceList.editItem', { item: item.description })} onClick={() => setEditing(item)}>
                  {t('form.edit')}
                </button>
                <button type="button" className={smallButton} aria-label={t('priceList.deleteItem', { item: item.description })} onClick={() => confirmDelete.ask(item)}>
                  {t('form.delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ExtraItemForm
        key={editing?.id ?? 'new'}
        item={editing}
        onSaved={(answer) => {
          onChange(answer);
          setEditing(null);
        }}
        onCancel={() => setEditing(null)}
      />
      {confirmDelete.dialog({
        title: t('priceList.confirmDeleteTitle'),
        body: (item) => t('priceList.confirmDeleteBody', { item: item.description }),
        confirmLabel: t('priceList.confirmDelete'),
        cancelLabel: t('form.cancel'),
        onConfirm: (item) => void remove(item),
      })}
    </section>
  );
}

type ExtraValues = { Description: string; Price: string };
type ExtraOutput = v.InferOutput<typeof UpdateExtraPriceItemSchema>;
const extraSchema = UpdateExtraPriceItemSchema as unknown as GenericSchema<ExtraValues, ExtraOutput>;
const valuesOf = (item: ExtraPriceItem | null): ExtraValues => ({ Description: item?.description ?? '', Price: item ? oreToField(item.priceOre) : '' });

function ExtraItemForm({ item, onSaved, onCancel }: { item: ExtraPriceItem | null; onSaved: (answer: PriceService) => void; onCancel: () => void }) {
  const t = useAppT(backendI18n);
  const form = useApiForm<ExtraValues, ExtraOutput>({
    schema: extraSchema,
    defaultValues: valuesOf(item),
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const answer = await priceListApi.saveExtraItem({ ...(item ? { Id: item.id } : {}), Description: values.Description, Price: oreToDkk(values.Price) });
      form.reset(valuesOf(null));
      onSaved(answer);
      toast({ title: t('form.saved'), variant: 'success' });
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const prefix = item ? `extra-item-${item.id}` : 'extra-item-new';

  return (
    <form noValidate onSubmit={form.submit} className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-slate-50 p-4" aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`} className="text-lg font-semibold text-ink">
        {item ? t('priceList.editTitle', { item: item.description }) : t('priceList.addExtraTitle')}
      </h3>
      <FormNotice message={noticeText(t, form.notice)} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={`${prefix}-description`} className="sm:col-span-2" label={t('priceList.extraDescription')} required error={fieldText(t, errors.Description?.message)}>
          {(control) => <input {...control} {...form.register('Description')} maxLength={100} className={controlClass(!!errors.Description, 'min-h-11')} />}
        </Field>
        <Field id={`${prefix}-price`} label={t('priceList.extraPrice')} hint={t('priceList.priceHint')} required error={fieldText(t, errors.Price?.message)}>
          {(control) => <input {...control} {...form.register('Price')} inputMode="decimal" autoComplete="off" className={controlClass(!!errors.Price, 'min-h-11')} />}
        </Field>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('form.saving') : item ? t('form.save') : t('priceList.addExtraItem')}
        </button>
        {item ? (
          <button type="button" className={secondaryButton} onClick={onCancel}>
            {t('form.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

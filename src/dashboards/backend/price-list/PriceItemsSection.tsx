/**
 * The price items: the list in the order the advert shows them, reordered by drag and drop or with the
 * "move up" / "move down" buttons (the result is announced in a live region and saved at once), and the
 * form that adds an item or changes the one being edited.
 */
import { useState } from 'react';
import type * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import { PriceItemSchema } from '#lib/schemas/advert-edit.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useReorder } from '../../shared/use-reorder.tsx';
import { useConfirmation } from '../../shared/use-confirmation.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { ReorderList } from '../ReorderList.tsx';
import { backendI18n } from '../i18n.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { oreToDkk, oreToField, priceListApi, type PriceItem, type PriceService } from './api.ts';
import { fieldText, noticeText, primaryButton, reportFailure, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { Price } from './Price.tsx';

type Props = { data: PriceService; onChange: (data: PriceService) => void };

export function PriceItemsSection({ data, onChange }: Props) {
  const t = useAppT(backendI18n);
  const [editing, setEditing] = useState<PriceItem | null>(null);
  const confirmDelete = useConfirmation<PriceItem>();
  const items = data.priceItems;

  const label = (item: PriceItem) => t('priceList.itemLabel', { minutes: item.durationMinutes });

  async function saveOrder(next: PriceItem[]) {
    const previous = data;
    onChange({ ...data, priceItems: next });
    try {
      onChange(await priceListApi.reorder(next.map((item) => item.id)));
    } catch (error) {
      onChange(previous);
      reportFailure(t, error);
    }
  }

  const reorder = useReorder({
    items,
    idOf: (item) => item.id,
    idPrefix: 'price-item',
    announce: (moved, position, count) => t('priceList.moved', { item: label(moved), position, count }),
    onReorder: (next) => void saveOrder(next),
  });

  async function remove(item: PriceItem) {
    try {
      onChange(await priceListApi.deletePriceItem(item.id));
      if (editing?.id === item.id) setEditing(null);
      toast({ title: t('priceList.deleted'), variant: 'success' });
    } catch (error) {
      reportFailure(t, error);
    }
  }

  return (
    <ReorderList
      titleId="price-items-title"
      texts={{
        title: t('priceList.priceItems'),
        help: t('priceList.priceItemsHelp'),
        empty: t('priceList.noPriceItems'),
        dragHint: t('priceList.dragHint'),
        moveUp: (item) => t('priceList.moveUp', { item }),
        moveDown: (item) => t('priceList.moveDown', { item }),
      }}
      items={items}
      reorder={reorder}
      label={label}
      dataOf={(item) => ({ 'data-price-item': item.id })}
      content={(item) => (
        <div className="min-w-48 flex-1">
          <p className="font-semibold text-ink">{label(item)}</p>
          <p className="text-sm text-slate-700">
            {t('priceList.incall')}: {item.incallPriceOre === null ? t('priceList.notOffered') : <Price ore={item.incallPriceOre} />}
            {' · '}
            {t('priceList.outcall')}: {item.outcallPriceOre === null ? t('priceList.notOffered') : <Price ore={item.outcallPriceOre} />}
          </p>
          {item.description ? <p className="text-sm text-slate-600">{item.description}</p> : null}
        </div>
      )}
      actions={(item) => (
        <>
          <button type="button" className={smallButton} aria-label={t('priceList.editItem', { item: label(item) })} onClick={() => setEditing(item)}>
            {t('form.edit')}
          </button>
          <button type="button" className={smallButton} aria-label={t('priceList.deleteItem', { item: label(item) })} onClick={() => confirmDelete.ask(item)}>
            {t('form.delete')}
          </button>
        </>
      )}
    >
      <PriceItemForm
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
        body: (item) => t('priceList.confirmDeleteBody', { item: label(item) }),
        confirmLabel: t('priceList.confirmDelete'),
        cancelLabel: t('form.cancel'),
        onConfirm: (item) => void remove(item),
      })}
    </ReorderList>
  );
}

type PriceItemValues = { DurationMinutes: string; IncallPrice: string; OutcallPrice: string; Description: string };
type PriceItemOutput = v.InferOutput<typeof PriceItemSchema>;
/** The shared schema takes any object (its items are matched case-insensitively); the form's fields are these. */
const priceItemSchema = PriceItemSchema as unknown as GenericSchema<PriceItemValues, PriceItemOutput>;

const valuesOf = (item: PriceItem | null): PriceItemValues => ({
  DurationMinutes: item ? String(item.durationMinutes) : '',
  IncallPrice: item ? oreToField(item.incallPriceOre) : '',
  OutcallPrice: item ? oreToField(item.outcallPriceOre) : '',
  Description: item?.description ?? '',
});

function PriceItemForm({ item, onSaved, onCancel }: { item: PriceItem | null; onSaved: (answer: PriceService) => void; onCancel: () => void }) {
  const t = useAppT(backendI18n);
  const form = useApiForm<PriceItemValues, PriceItemOutput>({
    schema: priceItemSchema,
    defaultValues: valuesOf(item),
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const answer = await priceListApi.savePriceItem({
          ...(item ? { Id: item.id } : {}),
          DurationMinutes: values.DurationMinutes,
          IncallPrice: values.IncallPrice === null ? null : oreToDkk(values.IncallPrice),
          OutcallPrice: values.OutcallPrice === null ? null : oreToDkk(values.OutcallPrice),
          Description: values.Description,
        });
      form.reset(valuesOf(null));
      onSaved(answer);
      toast({ title: t('form.saved'), variant: 'success' });
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const prefix = item ? `price-item-${item.id}` : 'price-item-new';

  return (
    <form noValidate onSubmit={form.submit} className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-slate-50 p-4" aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`} className="text-lg font-semibold text-ink">
        {item ? t('priceList.editTitle', { item: t('priceList.itemLabel', { minutes: item.durationMinutes }) }) : t('priceList.addTitle')}
      </h3>
      <FormNotice message={noticeText(t, form.notice)} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={`${prefix}-duration`} label={t('priceList.duration')} hint={t('priceList.durationHint')} required error={fieldText(t, errors.DurationMinutes?.message)}>
          {(control) => <input {...control} {...form.register('DurationMinutes')} inputMode="numeric" autoComplete="off" className={controlClass(!!errors.DurationMinutes, 'min-h-11')} />}
        </Field>
        <Field id={`${prefix}-incall`} label={t('priceList.incallPrice')} hint={t('priceList.priceHint')} error={fieldText(t, errors.IncallPrice?.message)}>
          {(control) => <input {...control} {...form.register('IncallPrice')} inputMode="decimal" autoComplete="off" className={controlClass(!!errors.IncallPrice, 'min-h-11')} />}
        </Field>
        <Field id={`${prefix}-outcall`} label={t('priceList.outcallPrice')} hint={t('priceList.priceHint')} error={fieldText(t, errors.OutcallPrice?.message)}>
          {(control) => <input {...control} {...form.register('OutcallPrice')} inputMode="decimal" autoComplete="off" className={controlClass(!!errors.OutcallPrice, 'min-h-11')} />}
        </Field>
      </div>
      <Field id={`${prefix}-description`} label={`${t('priceList.itemDescription')} (${t('form.optional')})`} error={fieldText(t, errors.Description?.message)}>
        {(control) => <input {...control} {...form.register('Description')} maxLength={100} className={controlClass(!!errors.Description, 'min-h-11')} />}
      </Field>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('form.saving') : item ? t('form.save') : t('priceList.addPriceItem')}
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

/**
 * The advert's services, grouped by type. Services are moderated: on an approved advert a change waits
 * for support, and the screen says which services are waiting and which are shown now.
 */
import { useStore } from '@nanostores/react';
import * as v from 'valibot';
import { InsertPriceServiceSchema } from '#lib/schemas/advert-edit.ts';
import { $locale } from '#lib/stores/locale.ts';
import { toast } from '#lib/stores/toasts.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { priceListApi, type PriceService, type Service } from './api.ts';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';

type Props = { data: PriceService; onChange: (data: PriceService) => void };
type ServicesValues = { Services: string[] };

/** The Services part of insertpriceservice's schema, required here (the form always sends the whole set). */
const servicesSchema = v.object({ Services: v.nonOptional(InsertPriceServiceSchema.entries.Services, 'ids') });
type ServicesOutput = v.InferOutput<typeof servicesSchema>;

/** What the advertiser chose last: the pending set when support has not decided yet, else the shown one. */
const chosenIds = (data: PriceService): string[] =>
  (data.pendingServiceIds ?? data.services.filter((s) => s.selected).map((s) => s.id)).map(String);

const TYPES = [1, 2, 3, 4] as const;

export function ServicesForm({ data, onChange }: Props) {
  const t = useAppT(backendI18n);
  const locale = useStore($locale);
  const nameOf = (service: Service) => (locale === 'en' ? service.nameEn : service.nameDa);
  const form = useApiForm<ServicesValues, ServicesOutput>({
    schema: servicesSchema as unknown as v.GenericSchema<ServicesValues, ServicesOutput>,
    defaultValues: { Services: chosenIds(data) },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const answer = await priceListApi.saveServices(values.Services);
      form.reset({ Services: chosenIds(answer) });
      onChange(answer);
      toast({ title: t(answer.pendingServiceIds ? 'form.savedPending' : 'form.saved'), variant: 'success' });
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  const pending = data.pendingServiceIds ? data.services.filter((s) => data.pendingServiceIds!.includes(s.id)) : null;
  const shown = data.services.filter((s) => s.selected);
  const error = fieldText(t, errors.Services?.message);

  return (
    <form noValidate onSubmit={form.submit} aria-labelledby="services-title" className="space-y-4">
      <h2 id="services-title" className="text-xl font-semibold text-ink">
        {t('priceList.services')}
      </h2>
      <p className="max-w-prose text-sm text-slate-700">{t('priceList.servicesHelp')}</p>
      {pending ? (
        <div className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="services-pending">
          <p className="font-semibold">{t('form.pending')}</p>
          <p>{pending.length ? pending.map(nameOf).join(', ') : t('form.none')}</p>
          <p className="mt-1">{t('form.current', { value: shown.length ? shown.map(nameOf).join(', ') : t('form.none') })}</p>
        </div>
      ) : null}
      <FormNotice message={noticeText(t, form.notice)} />
      <div className="grid gap-4 md:grid-cols-2">
        {TYPES.map((type) => {
          const group = data.services.filter((s) => s.type === type);
          if (group.length === 0) return null;
          return (
            <fieldset key={type} className="rounded-xl border border-slate-200 bg-white p-4">
              <legend className="px-1 font-semibold text-ink">{t(`common:advert.serviceType${type}`)}</legend>
              <ul className="mt-2 space-y-2">
                {group.map((service) => (
                  <li key={service.id} className="flex items-center gap-3">
                    <input
                      type="checkbox"
                      id={`service-${service.id}`}
                      value={String(service.id)}
                      className="size-5"
                      {...form.register('Services')}
                    />
                    <label htmlFor={`service-${service.id}`} className="text-sm text-ink">
                      {nameOf(service)}
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          );
        })}
      </div>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
      <button type="submit" className={primaryButton} disabled={isSubmitting}>
        {isSubmitting ? t('form.saving') : t('priceList.saveServices')}
      </button>
    </form>
  );
}

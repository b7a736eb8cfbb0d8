/**
 * /backend/basic/: name, title, introduction, description, phone, WhatsApp, website and location (region,
 * then city). On an approved advert a changed value waits for support: the input shows the proposed value
 * with an "Awaiting approval" badge and the value the public sees now. Opened with `?url=…` (the emailed
 * link) it confirms the email address first. Also shows whether email and phone are confirmed.
 */
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { useStore } from '@nanostores/react';
import type * as v from 'valibot';
import type { TFunction } from 'i18next';
import { BasicInformationSchema, type BasicInformationInput } from '#lib/schemas/advert-edit.ts';
import { $locale } from '#lib/stores/locale.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, CheckboxField, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { basicApi, type BasicInformation, type BasicInformationAnswer, type CityOption, type RegionOption } from './api.ts';
import { ContactVerification } from './ContactVerification.tsx';
import { EmailLinkCheck } from './EmailLinkCheck.tsx';
import { fieldText, noticeText } from '../../shared/form-text.ts';
import { PendingHint } from './PendingHint.tsx';

type Values = v.InferInput<typeof BasicInformationSchema>;
type Loaded = { answer: BasicInformationAnswer; regions: RegionOption[]; cities: CityOption[] };

export default function BasicScreen({ profile, reloadProfile }: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const linkToken = useMemo(() => new URLSearchParams(location.search).get('url'), []);
  const { state, setData, reload } = useScreenData<Loaded>((signal) =>
    Promise.all([basicApi.get(signal), basicApi.regions(signal), basicApi.cities(signal)]).then(([answer, regions, cities]) => ({ answer, regions, cities })),
  );

  return (
    <div className="max-w-3xl">
      <ScreenShell
        id="basic-screen-heading"
        title={t('screens.basic')}
        intro={t('basic.intro')}
        aside={
          <>
            {linkToken ? <EmailLinkCheck token={linkToken} t={t} reloadProfile={reloadProfile} /> : null}
            <ContactVerification profile={profile} reloadProfile={reloadProfile} t={t} />
          </>
        }
        state={state}
        loadError={t('basic.loadError')}
        onRetry={reload}
      >
        {(loaded) => <BasicForm loaded={loaded} t={t} onSaved={(answer) => setData({ ...loaded, answer })} />}
      </ScreenShell>
    </div>
  );
}

/** The form's values: the proposed value where one waits for approval, else the approved one. */
function valuesOf(answer: BasicInformationAnswer): Values {
  const shown: BasicInformation = { ...answer.current, ...answer.pending };
  return {
    Name: shown.name,
    Title: shown.title,
    Introduction: shown.introduction,
    Description: shown.description,
    Phone: shown.phone ?? '',
    HasWhatsapp: shown.hasWhatsapp,
    Website: shown.website ?? '',
    RegionId: shown.regionId === null ? '' : String(shown.regionId),
    CityId: shown.cityId === null ? '' : String(shown.cityId),
  };
}

function BasicForm({ loaded, t, onSaved }: { loaded: Loaded; t: TFunction; onSaved: (answer: BasicInformationAnswer) => void }) {
  const locale = useStore($locale);
  const { answer, regions, cities } = loaded;
  const form = useApiForm<Values, BasicInformationInput>({
    schema: BasicInformationSchema,
    defaultValues: valuesOf(answer),
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const saved = await basicApi.save({
        Name: values.Name,
        Title: values.Title,
        Introduction: values.Introduction,
        Description: values.Description,
        Phone: values.Phone,
        HasWhatsapp: values.HasWhatsapp,
        Website: values.Website,
        RegionId: values.RegionId,
        CityId: values.CityId,
      });
      onSaved(saved);
      form.reset(valuesOf(saved));
      toast({ title: t(saved.pendingFields.length > 0 ? 'form.savedPending' : 'form.saved'), variant: 'success' });
    },
  });
  const {
    register,
    control,
    setValue,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  const regionId = Number(useWatch({ control, name: 'RegionId' }));
  const regionCities = cities.filter((city) => city.regionId === regionId);
  const regionName = (region: RegionOption) => (locale === 'en' ? region.nameEn : region.name);
  const pending = new Set(answer.pendingFields);
  const current = answer.current;

  const currentLocation = () => {
    const region = regions.find((r) => r.id === current.regionId);
    const city = cities.find((c) => c.id === current.cityId);
    return [city?.city, region ? regionName(region) : null].filter(Boolean).join(', ');
  };
  const hint = (field: string, value: string) => (pending.has(field) ? <PendingHint t={t} current={value} /> : undefined);
  const err = (name: keyof Values) => fieldText(t, errors[name]?.message);

  return (
    <form onSubmit={form.submit} noValidate className="mt-8 space-y-5" aria-labelledby="basic-form-title">
      <h2 id="basic-form-title" className="text-lg font-semibold text-ink">
        {t('basic.formTitle')}
      </h2>
      <FormNotice message={noticeText(t, form.notice)} />
      <Field id="basic-name" label={t('basic.name')} required error={err('Name')} hint={hint('name', current.name)}>
        {(c) => <input {...c} {...register('Name')} autoComplete="off" className={controlClass(!!errors.Name, 'h-11')} />}
      </Field>
      <Field id="basic-title" label={t('basic.title')} error={err('Title')} hint={hint('title', current.title)}>
        {(c) => <input {...c} {...register('Title')} className={controlClass(!!errors.Title, 'h-11')} />}
      </Field>
      <Field id="basic-introduction" label={t('basic.introduction')} error={err('Introduction')} hint={hint('introduction', current.introduction)}>
        {(c) => <textarea {...c} {...register('Introduction')} rows={3} className={controlClass(!!errors.Introduction, 'py-2')} />}
      </Field>
      <Field id="basic-description" label={t('basic.description')} error={err('Description')} hint={hint('description', current.description)}>
        {(c) => <textarea {...c} {...register('Description')} rows={8} className={controlClass(!!errors.Description, 'py-2')} />}
      </Field>
      <Field id="basic-phone" label={t('basic.phone')} required error={err('Phone')} hint={hint('phone', current.phone ?? '')}>
        {(c) => <input {...c} {...register('Phone')} type="tel" autoComplete="tel" className={controlClass(!!errors.Phone, 'h-11')} />}
      </Field>
      <div>
        <CheckboxField id="basic-whatsapp" label={t('basic.hasWhatsapp')} error={err('HasWhatsapp')}>
          {(c) => <input {...c} {...register('HasWhatsapp')} type="checkbox" className="mt-0.5 h-5 w-5 accent-brand-700" />}
        </CheckboxField>
        {pending.has('hasWhatsapp') ? (
          <p className="mt-1 text-sm">
            <PendingHint t={t} current={current.hasWhatsapp ? t('form.yes') : t('form.no')} />
          </p>
        ) : null}
      </div>
      <Field id="basic-website" label={t('basic.website')} error={err('Website')} hint={hint('website', current.website ?? '') ?? t('basic.websiteHint')}>
        {(c) => <input {...c} {...register('Website')} inputMode="url" autoComplete="url" className={controlClass(!!errors.Website, 'h-11')} />}
      </Field>
      <fieldset className="space-y-4">
        <legend className="text-sm font-semibold text-ink">{t('basic.location')}</legend>
        {pending.has('location') ? (
          <p className="text-sm">
            <PendingHint t={t} current={currentLocation()} />
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="basic-region" label={t('basic.region')} required error={err('RegionId')}>
            {(c) => (
              <select
                {...c}
                {...register('RegionId', { onChange: () => setValue('CityId', '', { shouldDirty: true }) })}
                className={controlClass(!!errors.RegionId, 'h-11')}
              >
                <option value="">{t('basic.choose')}</option>
                {regions.map((region) => (
                  <option key={region.id} value={String(region.id)}>
                    {regionName(region)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="basic-city" label={t('basic.city')} required error={err('CityId')}>
            {(c) => (
              <select {...c} {...register('CityId')} className={controlClass(!!errors.CityId, 'h-11')}>
                <option value="">{t('basic.choose')}</option>
                {regionCities.map((city) => (
                  <option key={city.id} value={String(city.id)}>
                    {city.city}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </fieldset>
      {answer.approved ? <p className="text-sm text-slate-700">{t('basic.moderationNote')}</p> : null}
      <button type="submit" disabled={isSubmitting} className="min-h-11 rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-60">
        {isSubmitting ? t('form.saving') : t('form.save')}
      </button>
    </form>
  );
}

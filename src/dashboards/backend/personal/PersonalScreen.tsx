/**
 * /backend/personal/: age, height, weight, breast type, nationality and languages. Like basic/, on an
 * approved advert a change waits for support: the field shows the proposed value with an "Awaiting
 * approval" badge and the value the public sees now.
 */
import { Controller } from 'react-hook-form';
import { useStore } from '@nanostores/react';
import type * as v from 'valibot';
import type { TFunction } from 'i18next';
import { PersonalDetailsSchema, type PersonalDetailsInput } from '#lib/schemas/advert-edit.ts';
import { $locale } from '#lib/stores/locale.ts';
import { toast } from '#lib/stores/toasts.ts';
import MultiSelect from '../../../components/MultiSelect.tsx';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { fieldText, noticeText } from '../../shared/form-text.ts';
import { PendingHint } from '../basic/PendingHint.tsx';
import { personalApi, type PersonalDetails, type PersonalDetailsAnswer, type ReferenceOption } from './api.ts';

type Values = v.InferInput<typeof PersonalDetailsSchema>;

export default function PersonalScreen() {
  const t = useAppT(backendI18n);
  const { state, setData, reload } = useScreenData(personalApi.get);
  return (
    <div className="max-w-3xl">
      <ScreenShell id="personal-screen-heading" title={t('screens.personal')} intro={t('personal.intro')} state={state} loadError={t('personal.loadError')} onRetry={reload}>
        {(answer) => <PersonalForm answer={answer} t={t} onSaved={setData} />}
      </ScreenShell>
    </div>
  );
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

function valuesOf(answer: PersonalDetailsAnswer): Values {
  const shown: PersonalDetails = { ...answer.current, ...answer.pending };
  return {
    Age: text(shown.age),
    Height: text(shown.height),
    Weight: text(shown.weight),
    BreastType: text(shown.breastType),
    NationalityId: text(shown.nationalityId),
    Languages: shown.languageIds,
  };
}

function PersonalForm({ answer, t, onSaved }: { answer: PersonalDetailsAnswer; t: TFunction; onSaved: (answer: PersonalDetailsAnswer) => void }) {
  const locale = useStore($locale);
  const form = useApiForm<Values, PersonalDetailsInput>({
    schema: PersonalDetailsSchema,
    defaultValues: valuesOf(answer),
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const saved = await personalApi.save({
        Age: values.Age,
        Height: values.Height,
        Weight: values.Weight,
        BreastType: values.BreastType,
        NationalityId: values.NationalityId,
        Languages: values.Languages,
      });
      onSaved(saved);
      form.reset(valuesOf(saved));
      toast({ title: t(saved.pendingFields.length > 0 ? 'form.savedPending' : 'form.saved'), variant: 'success' });
    },
  });
  const {
    register,
    control,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  const nameOf = (option: ReferenceOption) => (locale === 'en' ? option.nameEn : option.nameDa);
  const byName = (a: ReferenceOption, b: ReferenceOption) => nameOf(a).localeCompare(nameOf(b), locale);
  const nationalities = [...answer.options.nationalities].sort(byName);
  const languages = [...answer.options.languages].sort(byName);
  const pending = new Set(answer.pendingFields);
  const current = answer.current;
  const breastTypeName = (value: number | null) => (value === 1 ? t('personal.natural') : value === 2 ? t('personal.silicone') : '');
  const nationalityName = (id: number | null) => {
    const option = answer.options.nationalities.find((n) => n.id === id);
    return option ? nameOf(option) : '';
  };
  const languageNames = (ids: number[]) =>
    ids
      .map((id) => answer.options.languages.find((l) => l.id === id))
      .filter((l): l is ReferenceOption => l !== undefined)
      .map(nameOf)
      .join(', ');
  const hint = (field: string, value: string) => (pending.has(field) ? <PendingHint t={t} current={value} /> : undefined);
  const err = (name: keyof Values) => fieldText(t, errors[name]?.message);

  return (
    <form onSubmit={form.submit} noValidate className="mt-8 space-y-5" aria-labelledby="personal-form-title">
      <h2 id="personal-form-title" className="text-lg font-semibold text-ink">
        {t('personal.formTitle')}
      </h2>
      <FormNotice message={noticeText(t, form.notice)} />
      <div className="grid gap-5 sm:grid-cols-3">
        <Field id="personal-age" label={t('personal.age')} required error={err('Age')} hint={hint('age', text(current.age))}>
          {(c) => <input {...c} {...register('Age')} inputMode="numeric" className={controlClass(!!errors.Age, 'h-11')} />}
        </Field>
        <Field id="personal-height" label={t('personal.height')} error={err('Height')} hint={hint('height', text(current.height))}>
          {(c) => <input {...c} {...register('Height')} inputMode="numeric" className={controlClass(!!errors.Height, 'h-11')} />}
        </Field>
        <Field id="personal-weight" label={t('personal.weight')} error={err('Weight')} hint={hint('weight', text(current.weight))}>
          {(c) => <input {...c} {...register('Weight')} inputMode="numeric" className={controlClass(!!errors.Weight, 'h-11')} />}
        </Field>
      </div>
      <Field id="personal-breast-type" label={t('personal.breastType')} error={err('BreastType')} hint={hint('breastType', breastTypeName(current.breastType))}>
        {(c) => (
          <select {...c} {...register('BreastType')} className={controlClass(!!errors.BreastType, 'h-11')}>
            <option value="">{t('form.none')}</option>
            <option value="1">{t('personal.natural')}</option>
            <option value="2">{t('personal.silicone')}</option>
          </select>
        )}
      </Field>
      <Field id="personal-nationality" label={t('personal.nationality')} error={err('NationalityId')} hint={hint('nationalityId', nationalityName(current.nationalityId))}>
        {(c) => (
          <select {...c} {...register('NationalityId')} className={controlClass(!!errors.NationalityId, 'h-11')}>
            <option value="">{t('form.none')}</option>
            {nationalities.map((n) => (
              <option key={n.id} value={String(n.id)}>
                {nameOf(n)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div>
        {pending.has('languageIds') ? (
          <p className="mb-1 text-sm">
            <PendingHint t={t} current={languageNames(current.languageIds)} />
          </p>
        ) : null}
        <Controller
          control={control}
          name="Languages"
          render={({ field }) => (
            <MultiSelect
              legend={t('personal.languages')}
              name="Languages"
              options={languages.map((l) => ({ id: l.id, name: nameOf(l) }))}
              selected={Array.isArray(field.value) ? field.value.map(Number) : []}
              onChange={field.onChange}
              text={{
                filterLabel: t('common:multiselect.filterLabel', { name: t('personal.languages') }),
                filterPlaceholder: t('common:multiselect.placeholder'),
                noMatch: t('common:multiselect.noMatch'),
                empty: t('common:multiselect.empty'),
                remove: (name) => t('common:multiselect.remove', { name }),
                selected: t('common:multiselect.selected'),
              }}
            />
          )}
        />
        {err('Languages') ? <p className="mt-1 text-sm text-red-700">{err('Languages')}</p> : null}
      </div>
      {answer.approved ? <p className="text-sm text-slate-700">{t('personal.moderationNote')}</p> : null}
      <button type="submit" disabled={isSubmitting} className="min-h-11 rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-60">
        {isSubmitting ? t('form.saving') : t('form.save')}
      </button>
    </form>
  );
}

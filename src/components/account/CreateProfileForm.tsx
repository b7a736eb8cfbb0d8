/**
 * Step 1 of /create: the account and the advert draft in one form (createprofile, CreateProfileSchema
 * shared with the API). Regions come from searchpageregions, the cities of the chosen region from
 * searchpagecities. An incomplete form shows the notice and a message at each field and keeps what was
 * typed; the server's refusals (passwordCommon, city, …) land at their fields. A valid form is always
 * answered `checkEmail`: a new address gets the sign-up link, one that has an account its owner's email
 * (never "taken"). Pictures are optional: added before submitting (CreatePictures), attached by
 * createprofile.
 */
import { useEffect, useState } from 'react';
import type * as v from 'valibot';
import type { Locale } from '#lib/i18n/locales.ts';
import { frontendApi, type CityOption, type RegionOption } from '#lib/api/frontend.ts';
import { CreateProfileSchema, type CreateProfileInput } from '#lib/schemas/account.ts';
import { Field, FormNotice, SubmitButton, controlClass } from '../form/Field.tsx';
import { useApiForm } from '../form/use-api-form.ts';
import { CreatePictures } from './CreatePictures.tsx';
import { AdultFields, NewPasswordField } from './AdultFields.tsx';
import { RadioGroup } from './RadioGroup.tsx';
import type { AccountTexts } from './texts.ts';

type Props = {
  texts: AccountTexts;
  locale: Locale;
  termsHref: string;
  /** Sent: the address gets an email (a sign-up link, or its owner's notice); the same answer either way. */
  /** The sign-up as sent (kept in memory by the next screen, which can send the email again). */
  onSent: (input: CreateProfileInput) => void;
};

type FormInput = v.InferInput<typeof CreateProfileSchema>;

export function CreateProfileForm({ texts, locale, termsHref, onSent }: Props) {
  const { t, field } = texts;
  const [regions, setRegions] = useState<RegionOption[]>([]);
  const [cities, setCities] = useState<CityOption[]>([]);
  const [placesFailed, setPlacesFailed] = useState(false);

  const form = useApiForm({
    schema: CreateProfileSchema,
    defaultValues: {
      Email: '',
      Password: '',
      Kind: '',
      Gender: '',
      Name: '',
      Phone: '',
      RegionId: '',
      CityId: '',
      DateOfBirth: '',
      AcceptTerms: false,
      Locale: locale,
    } satisfies FormInput,
    onValid: async (values) => {
      await frontendApi.createProfile(values);
      onSent(values);
    },
  });
  const {
    register,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  const regionId = Number(watch('RegionId')) || null;

  useEffect(() => {
    const controller = new AbortController();
    frontendApi.regions(controller.signal).then(setRegions, () => {
      if (!controller.signal.aborted) setPlacesFailed(true);
    });
    return () => controller.abort();
  }, []);

  useEffect(() => {
    setCities([]);
    if (!regionId) return;
    const controller = new AbortController();
    frontendApi.cities(regionId, controller.signal).then(setCities, () => {
      if (!controller.signal.aborted) setPlacesFailed(true);
    });
    return () => controller.abort();
  }, [regionId]);

  const regionName = (region: RegionOption) => (locale === 'en' ? region.nameEn || region.name : region.name);

  return (
    <form method="post" noValidate onSubmit={form.submit} className="space-y-8">
      <FormNotice message={texts.notice(form.notice)} />
      {placesFailed ? <FormNotice message={t('create.placesFailed')} /> : null}

      <section aria-labelledby="create-account-heading" className="space-y-5">
        <h2 id="create-account-heading" className="text-lg font-semibold text-ink">
          {t('create.accountHeading')}
        </h2>
        <Field id="create-email" label={t('create.email')} hint={t('create.emailHint')} required error={field(errors.Email?.message)}>
          {(control) => (
            <input {...control} type="email" autoComplete="email" inputMode="email" className={controlClass(Boolean(errors.Email), 'h-11')} {...register('Email')} />
          )}
        </Field>
        <NewPasswordField idPrefix="create" texts={texts} register={register} errors={errors} />
      </section>

      <section aria-labelledby="create-advert-heading" className="space-y-5">
        <h2 id="create-advert-heading" className="text-lg font-semibold text-ink">
          {t('create.advertHeading')}
        </h2>
        <RadioGroup
          id="create-kind"
          legend={t('create.kind')}
          options={[
            { value: '0', label: t('create.kindEscort') },
            { value: '1', label: t('create.kindThai') },
          ]}
          registration={register('Kind')}
          error={field(errors.Kind?.message)}
        />
        <RadioGroup
          id="create-gender"
          legend={t('create.gender')}
          hint={t('create.genderHint')}
          options={[
            { value: '1', label: t('create.genderWoman') },
            { value: '5', label: t('create.genderTrans') },
          ]}
          registration={register('Gender')}
          error={field(errors.Gender?.message)}
        />
        <Field id="create-name" label={t('create.name')} hint={t('create.nameHint')} required error={field(errors.Name?.message)}>
          {(control) => <input {...control} type="text" autoComplete="off" maxLength={60} className={controlClass(Boolean(errors.Name), 'h-11')} {...register('Name')} />}
        </Field>
        <Field id="create-phone" label={t('create.phone')} hint={t('create.phoneHint')} required error={field(errors.Phone?.message)}>
          {(control) => (
            <input {...control} type="tel" autoComplete="tel-national" inputMode="tel" className={controlClass(Boolean(errors.Phone), 'h-11')} {...register('Phone')} />
          )}
        </Field>
        <div className="grid gap-5 md:grid-cols-2">
          <Field id="create-region" label={t('create.region')} required error={field(errors.RegionId?.message)}>
            {(control) => (
              <select
                {...control}
                className={controlClass(Boolean(errors.RegionId), 'h-11')}
                {...register('RegionId', { onChange: () => setValue('CityId', '') })}
              >
                <option value="">{t('create.regionChoose')}</option>
                {regions.map((region) => (
                  <option key={region.id} value={String(region.id)}>
                    {regionName(region)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="create-city" label={t('create.city')} required error={field(errors.CityId?.message)}>
            {(control) => (
              <select {...control} className={controlClass(Boolean(errors.CityId), 'h-11')} {...register('CityId')}>
                <option value="">{regionId ? t('create.cityChoose') : t('create.cityFirst')}</option>
                {cities.map((city) => (
                  <option key={city.id} value={String(city.id)}>
                    {city.city}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <AdultFields idPrefix="create" texts={texts} termsHref={termsHref} register={register} errors={errors} />
      </section>

      <CreatePictures texts={texts} />

      <SubmitButton busy={isSubmitting}>{isSubmitting ? t('create.submitting') : t('create.submit')}</SubmitButton>
    </form>
  );
}

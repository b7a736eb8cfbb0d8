/**
 * /support/places/ (SEO): the regions and their cities as the public search pages use them
 * (/{kind}/{region}/{city}/), each with how many public adverts it has and a link to the text of its
 * search page per kind (the landing-page editor: the page, or a new index page for the place); add a city
 * to a region (cities POST: a name the region has is refused at the field, `cityExists`); rename a city
 * (renamecity) after a confirmation that says its old addresses will redirect (301) to the new ones.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useStore } from '@nanostores/react';
import { slugify } from '#lib/format.ts';
import { $locale } from '#lib/stores/locale.ts';
import { supportPlacesApi } from '#lib/api/support-places.ts';
import {
  AddCitySchema,
  PLACE_KINDS,
  RenameCitySchema,
  placePageHref,
  type PlacePages,
  type RenameCityInput,
  type SupportCity,
  type SupportRegion,
} from '#lib/schemas/places.ts';
import { toast } from '#lib/stores/toasts.ts';
import { AddRowForm } from '../../../components/form/AddRowForm.tsx';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { SendConfirmation, useSendConfirmation } from '../../shared/confirm-before-sending.tsx';
import { fieldText, noticeText, primaryButton, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportRouter } from '../routes.ts';
import { ScreenShell } from '../screen-data.tsx';
import { Table, cell } from '../advert/advert-sections.tsx';

export default function PlacesScreen() {
  const t = useAppT(supportI18n);
  const { state, setData, reload } = useScreenData((signal) => supportPlacesApi.regions(signal));
  const [renaming, setRenaming] = useState<number | null>(null);

  /** A city added or renamed: put it in its region (new ones last, as the site orders them). */
  function showCity(regions: SupportRegion[], city: SupportCity) {
    setData(
      regions.map((region) =>
        region.id !== city.regionId
          ? region
          : {
              ...region,
              cities: region.cities.some((c) => c.id === city.id) ? region.cities.map((c) => (c.id === city.id ? city : c)) : [...region.cities, city],
            },
      ),
    );
  }

  return (
    <ScreenShell id="places-heading" title={t('screens.places')} intro={t('places.intro')} state={state} loadError={t('places.loadError')} onRetry={reload}>
      {(regions) => (
        <>
          <AddCityForm t={t} regions={regions} onAdded={(city) => showCity(regions, city)} />
          <RegionLinks t={t} regions={regions} />
          {regions.map((region) => (
            <RegionSection
              key={region.id}
              t={t}
              region={region}
              renaming={renaming}
              onRename={setRenaming}
              onRenamed={(city) => {
                setRenaming(null);
                showCity(regions, city);
              }}
            />
          ))}
        </>
      )}
    </ScreenShell>
  );
}

function useRegionName(): (region: Pick<SupportRegion, 'name' | 'nameEn'>) => string {
  const locale = useStore($locale);
  return (region) => (locale === 'en' ? region.nameEn : region.name);
}

/** The regions as links to their sections (the list is long). */
function RegionLinks({ t, regions }: { t: TFunction; regions: SupportRegion[] }) {
  const regionName = useRegionName();
  return (
    <nav aria-label={t('places.jumpTo')} className="mt-6">
      <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
        {regions.map((region) => (
          <li key={region.id}>
            <a href={`#region-${region.id}`} className="text-brand-700 underline">
              {regionName(region)} ({region.cities.length})
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The links to a place's page texts, one per kind: the page when it has one, else a new one. */
function PageLinks({ t, pages, place, regionId, cityId }: { t: TFunction; pages: PlacePages; place: string; regionId: number; cityId?: number }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1">
      {PLACE_KINDS.map((kind) => {
        const pageId = pages[kind];
        const kindName = t(`places.kinds.${kind}`);
        return (
          <li key={kind}>
            <AppLink
              router={supportRouter}
              href={placePageHref(kind, pageId, regionId, cityId)}
              aria-label={t(pageId === null ? 'places.writeTextLabel' : 'places.editTextLabel', { kind: kindName, place })}
              data-page-text={kind}
              data-has-text={pageId !== null}
              className={pageId === null ? 'text-slate-700 underline' : 'font-medium text-brand-700 underline'}
            >
              {t(pageId === null ? 'places.writeText' : 'places.editText', { kind: kindName })}
            </AppLink>
          </li>
        );
      })}
    </ul>
  );
}

type RegionProps = {
  t: TFunction;
  region: SupportRegion;
  renaming: number | null;
  onRename: (cityId: number | null) => void;
  onRenamed: (city: SupportCity) => void;
};

function RegionSection({ t, region, renaming, onRename, onRenamed }: RegionProps) {
  const regionName = useRegionName()(region);
  const headingId = `region-${region.id}`;
  const columns = (['city', 'address', 'adverts', 'texts', 'actions'] as const).map((column) => t(`places.columns.${column}`));
  return (
    <section aria-labelledby={headingId} className="mt-10 scroll-mt-4" data-region={region.slug}>
      <h2 id={headingId} className="text-xl font-semibold text-ink">
        {regionName}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        <span className="font-mono">/…/{region.slug}/</span> · {t('places.regionAdverts', { count: region.publicAdverts })}
      </p>
      <div className="mt-2 text-sm">
        <p className="font-medium text-ink">{t('places.regionTexts')}</p>
        <PageLinks t={t} pages={region.pages} place={regionName} regionId={region.id} />
      </div>
      {region.cities.length === 0 ? (
        <p className="mt-4 text-slate-700">{t('places.noCities')}</p>
      ) : (
        <Table caption={t('places.caption', { region: regionName })} columns={columns}>
          {region.cities.map((city) => (
            <CityRows key={city.id} t={t} city={city} regionSlug={region.slug} isRenaming={renaming === city.id} onRename={onRename} onRenamed={onRenamed} />
          ))}
        </Table>
      )}
    </section>
  );
}

type CityProps = {
  t: TFunction;
  city: SupportCity;
  regionSlug: string;
  isRenaming: boolean;
  onRename: (cityId: number | null) => void;
  onRenamed: (city: SupportCity) => void;
};

function CityRows({ t, city, regionSlug, isRenaming, onRename, onRenamed }: CityProps) {
  return (
    <>
      <tr data-city={city.name}>
        <th scope="row" className="px-3 py-2 align-top font-medium text-ink">
          {city.name}
        </th>
        <td className={`${cell} font-mono text-xs`} data-city-address>
          /…/{regionSlug}/{city.slug}/
        </td>
        <td className={cell} data-public-adverts>
          {city.publicAdverts}
        </td>
        <td className={cell}>
          <PageLinks t={t} pages={city.pages} place={city.name} regionId={city.regionId} cityId={city.id} />
        </td>
        <td className={`${cell} text-right`}>
          {isRenaming ? null : (
            <button type="button" className={smallButton} aria-label={t('places.rename.openLabel', { name: city.name })} onClick={() => onRename(city.id)}>
              {t('places.rename.open')}
            </button>
          )}
        </td>
      </tr>
      {isRenaming ? (
        <tr>
          <td colSpan={5} className="bg-slate-50 px-3 py-3">
            <RenameForm t={t} city={city} onCancel={() => onRename(null)} onRenamed={onRenamed} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function RenameForm({ t, city, onCancel, onRenamed }: { t: TFunction; city: SupportCity; onCancel: () => void; onRenamed: (city: SupportCity) => void }) {
  const question = useSendConfirmation<RenameCityInput>();
  const form = useApiForm({
    schema: RenameCitySchema,
    defaultValues: { Id: city.id, Name: city.name },
    onUnauthorized: goToLogin,
    onValid: async (values: RenameCityInput) => {
      if (values.Name === city.name) return onCancel();
      if (!question.mayProceed(values)) return;
      const { redirects, ...renamed } = await supportPlacesApi.renameCity(values);
      form.reset({ Id: renamed.id, Name: renamed.name });
      toast({ title: t(redirects.length > 0 ? 'places.rename.renamed' : 'places.rename.renamedSameAddress', { old: city.name, name: renamed.name }), variant: 'success' });
      onRenamed(renamed);
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const fieldId = `rename-city-${city.id}`;
  const asked = question.asking;
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby={`${fieldId}-title`} className="space-y-3">
      <h3 id={`${fieldId}-title`} className="font-semibold text-ink">
        {t('places.rename.title', { name: city.name })}
      </h3>
      <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
      <Field id={fieldId} label={t('places.rename.name')} hint={t('places.add.nameHint')} required error={fieldText(t, errors.Name?.message)}>
        {(control) => (
          <input {...control} {...form.register('Name', { onChange: question.cancel })} autoComplete="off" maxLength={80} className={controlClass(Boolean(errors.Name), 'h-11 max-w-sm')} />
        )}
      </Field>
      {asked ? (
        <SendConfirmation
          id={`${fieldId}-confirm`}
          text={t(slugify(asked.Name) === city.slug ? 'places.rename.confirmTextSameAddress' : 'places.rename.confirmText', {
            old: city.name,
            name: asked.Name,
            oldSlug: city.slug,
            slug: slugify(asked.Name),
          })}
          confirmLabel={t('places.rename.confirm')}
          busyLabel={t('places.rename.sending')}
          cancelLabel={t('places.rename.cancel')}
          busy={isSubmitting}
          onConfirm={() => question.confirm(form.submit)}
          onCancel={question.cancel}
        />
      ) : (
        <div className="flex flex-wrap gap-3">
          <button type="submit" className={primaryButton} disabled={isSubmitting}>
            {t('places.rename.submit')}
          </button>
          <button type="button" className={secondaryButton} onClick={onCancel}>
            {t('places.rename.cancel')}
          </button>
        </div>
      )}
    </form>
  );
}

function AddCityForm({ t, regions, onAdded }: { t: TFunction; regions: SupportRegion[]; onAdded: (city: SupportCity) => void }) {
  const regionName = useRegionName();
  const empty = { RegionId: String(regions[0]?.id ?? ''), Name: '' };
  const form = useApiForm({
    schema: AddCitySchema,
    defaultValues: empty,
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const city = await supportPlacesApi.addCity(values);
      const region = regions.find((r) => r.id === city.regionId);
      form.reset({ RegionId: String(city.regionId), Name: '' });
      toast({ title: t('places.add.added', { name: city.name, region: region ? regionName(region) : '' }), variant: 'success' });
      onAdded(city);
    },
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  return (
    <AddRowForm id="places-add" form={form} title={t('places.add.title')} notice={noticeText(t, form.notice)} submitLabel={t('places.add.submit')} busyLabel={t('form.saving')} buttonClassName={primaryButton}>
      <div className="flex flex-wrap items-start gap-4">
        <Field id="places-add-region" label={t('places.add.region')} required error={fieldText(t, errors.RegionId?.message)}>
          {(control) => (
            <select {...control} {...form.register('RegionId')} className={controlClass(Boolean(errors.RegionId), 'h-11')}>
              {regions.map((region) => (
                <option key={region.id} value={String(region.id)}>
                  {regionName(region)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="places-add-name" label={t('places.add.name')} hint={t('places.add.nameHint')} required error={fieldText(t, errors.Name?.message)} className="max-w-md flex-1">
          {(control) => <input {...control} {...form.register('Name')} autoComplete="off" maxLength={80} className={controlClass(Boolean(errors.Name), 'h-11')} />}
        </Field>
      </div>
    </AddRowForm>
  );
}

/**
 * /support/landing-pages/{id}/ and /support/landing-pages/new/ (SEO): one SEO page with its Danish and
 * English twins side by side: title, meta description, intro and Markdown body, the reading time at 200
 * words a minute and a preview exactly as the public page shows it (LandingPreview: the public page's own
 * rendering), saved together (POST landingpage); the address is shared by the twins (a published page's
 * old address answers 301 after a change). Per language: publish or unpublish (publishlandingpage), the
 * images with alt text (landingpageimage, deletelandingpageimage), delete (deletelandingpage).
 * new/?type=index&url={place} starts a place's index page (from the list's "no text yet" rows);
 * new/?term={term} a free page titled and addressed after a visitors' search term (unmatched keywords).
 * A refused form keeps what was typed; leaving a changed form asks first.
 */
import type { TFunction } from 'i18next';
import { supportSeoPagesApi } from '#lib/api/support-seo-pages.ts';
import { landingText } from '#lib/markdown.ts';
import {
  LANDING_LOCALES,
  LANDING_PAGE_TYPES,
  LandingPageChangeSchema,
  landingPublicPath,
  pageFromTerm,
  type LandingLocale,
  type LandingPageChangeInput,
  type LandingPageTypeValue,
  type SupportLandingPage,
} from '#lib/schemas/landing-page.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import type * as v from 'valibot';
import { useApiForm, type ApiForm } from '../../../components/form/use-api-form.ts';
import { LandingPreview } from '../../../components/LandingPreview.tsx';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { ItemScreen, itemLoader } from '../item-screen.tsx';
import { landingPageHref } from '../landing-pages/LandingPagesScreen.tsx';
import { TwinActions } from './landing-page-parts.tsx';

/** What a new page starts from (the address's query). */
type Start = { type: LandingPageTypeValue; url: string; title: string };

function startOf(search: Record<string, string>): Start {
  const term = (search['term'] ?? '').trim();
  if (term) return { type: 'free', ...pageFromTerm(term) };
  const type = (LANDING_PAGE_TYPES as readonly string[]).includes(search['type'] ?? '') ? (search['type'] as LandingPageTypeValue) : 'free';
  return { type, url: (search['url'] ?? '').trim().slice(0, 200), title: '' };
}

export default function LandingPageScreen({ params, search }: SupportScreenProps) {
  const id = params['id'] ?? '';
  const start = startOf(search);
  // The regions and cities screen names a place by its ids (new/?type=index&kind=escort&regionId=3&cityId=7).
  const kind = search['kind'] ?? '';
  const regionId = /^\d{1,9}$/.test(search['regionId'] ?? '') ? Number(search['regionId']) : null;
  const cityId = /^\d{1,9}$/.test(search['cityId'] ?? '') ? Number(search['cityId']) : null;
  if (id === 'new' && start.type === 'index' && !start.url && kind && regionId !== null) {
    return <PlaceResolver key={`${kind}/${regionId}/${cityId}`} kind={kind} regionId={regionId} cityId={cityId} />;
  }
  return <LandingPageLoader key={`${id}?${start.type}/${start.url}/${start.title}`} id={id} start={start} />;
}

/** Finds a place's index page (its editor, or a new one at its address) and opens it in place of this address. */
function PlaceResolver({ kind, regionId, cityId }: { kind: string; regionId: number; cityId: number | null }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData(async (signal) => {
    const list = await supportSeoPagesApi.list({ TypeValue: 'index', Url: kind, RegionId: String(regionId), ...(cityId === null ? {} : { CityId: String(cityId) }), Take: 200 }, signal);
    const item = list.items.find((row) => row.url.split('/')[0] === kind && row.regionId === regionId && row.cityId === cityId);
    if (!item) return 'notFound' as const;
    supportRouter.open(item.id === null ? landingPageHref('new', { type: 'index', url: item.url }) : landingPageHref(item.id), true);
    return 'opening' as const;
  });
  return (
    <ItemScreen
      width="max-w-7xl"
      catalog="landingPage"
      list='landingPages'
      title={t('landingPage.newTitle')}
      state={state}
      onRetry={reload}
    >
      {() => null}
    </ItemScreen>
  );
}

/** undefined: a new page. */
type Loaded = SupportLandingPage | undefined;

function LandingPageLoader({ id, start }: { id: string; start: Start }) {
  const t = useAppT(supportI18n);
  const isNew = id === 'new';
  const load = itemLoader(id, (pageId, signal) => supportSeoPagesApi.page(pageId, signal));
  const { state, setData, reload } = useScreenData<Loaded | 'notFound'>((signal) => (isNew ? Promise.resolve(undefined) : load(signal)));
  const loaded = state.status === 'ready' && state.data && state.data !== 'notFound' ? state.data : null;
  const title = loaded ? (loaded.twins.da?.title ?? loaded.twins.en?.title ?? loaded.url) : isNew ? t('landingPage.newTitle') : t('screens.landingPage');
  return (
    <ItemScreen
      width="max-w-7xl"
      catalog="landingPage"
      list='landingPages'
      title={title}
      state={state}
      onRetry={reload}
    >
      {(page) => <LandingPageEditor t={t} page={page} start={start} onChanged={setData} />}
    </ItemScreen>
  );
}

/** The form's values: the call's fields as the page has them (a new page: what it starts from). */
function valuesOf(page: SupportLandingPage | undefined, start: Start): LandingPageChangeInput {
  const twin = (locale: LandingLocale) => page?.twins[locale];
  return {
    id: twin('da')?.id ?? twin('en')?.id ?? '',
    type: page?.type ?? start.type,
    url: page?.url ?? start.url,
    titleDa: twin('da')?.title ?? start.title,
    metaDescriptionDa: twin('da')?.metaDescription ?? '',
    introDa: twin('da')?.intro ?? '',
    bodyDa: twin('da')?.body ?? '',
    titleEn: twin('en')?.title ?? '',
    metaDescriptionEn: twin('en')?.metaDescription ?? '',
    introEn: twin('en')?.intro ?? '',
    bodyEn: twin('en')?.body ?? '',
  };
}

const SUFFIX: Record<LandingLocale, 'Da' | 'En'> = { da: 'Da', en: 'En' };

function LandingPageEditor({ t, page, start, onChanged }: { t: TFunction; page: Loaded; start: Start; onChanged: (page: SupportLandingPage) => void }) {
  const form = useApiForm({
    schema: LandingPageChangeSchema,
    defaultValues: valuesOf(page, start),
    onUnauthorized: goToLogin,
    onValid: async (values: LandingPageChangeInput) => {
      const saved = await supportSeoPagesApi.save(values);
      form.reset(valuesOf(saved, start));
      if (page) {
        onChanged(saved);
        toast({ title: t('landingPage.saved'), variant: 'success' });
      } else {
        toast({ title: t('landingPage.created'), variant: 'success' });
        const id = saved.twins.da?.id ?? saved.twins.en?.id;
        if (id) supportRouter.open(landingPageHref(id), true);
      }
    },
  });
  const {
    register,
    watch,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const err = (field: keyof LandingPageChangeInput) => fieldText(t, errors[field]?.message);
  const type = watch('type');
  const url = watch('url');
  const fixedPlace = type === 'index' && (Boolean(page) || Boolean(start.url));

  return (
    <div className="mt-6 space-y-8">
      <form noValidate onSubmit={form.submit} className="space-y-6" aria-labelledby="landing-page-heading">
        <FormNotice message={noticeText(t, form.notice) ?? err('id') ?? null} />
        <section className="grid gap-5 rounded-xl border border-slate-200 bg-white p-5 md:grid-cols-[14rem_1fr]">
          <Field id="landing-type" label={t('landingPage.type')} required error={err('type')}>
            {(c) => (
              <select {...c} {...register('type')} disabled={Boolean(page)} className={controlClass(Boolean(errors.type), 'h-11 w-full')}>
                {LANDING_PAGE_TYPES.map((value) => (
                  <option key={value} value={value}>
                    {t(`landingPages.types.${value}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="landing-url"
            label={t('landingPage.url')}
            required
            error={err('url')}
            hint={
              url
                ? t('landingPage.urlHint', { da: landingPublicPath(type, url, 'da'), en: landingPublicPath(type, url, 'en') })
                : t('landingPage.urlEmptyHint')
            }
          >
            {(c) => <input {...c} {...register('url')} readOnly={fixedPlace} autoComplete="off" maxLength={200} className={controlClass(Boolean(errors.url), 'h-11 w-full font-mono')} />}
          </Field>
          {page?.place ? <p className="text-slate-700 md:col-span-2">{t('landingPage.place', { place: page.place })}</p> : null}
        </section>
        <div className="grid gap-6 lg:grid-cols-2">
          {LANDING_LOCALES.map((locale) => (
            <TwinFields key={locale} t={t} form={form} locale={locale} err={err} />
          ))}
        </div>
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('form.saving') : t('form.save')}
        </button>
      </form>
      <div className="grid gap-6 lg:grid-cols-2">
        {LANDING_LOCALES.map((locale) => (
          <TwinPreview key={locale} t={t} locale={locale} type={type} form={form} page={page} />
        ))}
      </div>
      {page ? (
        <div className="grid gap-6 lg:grid-cols-2">
          {LANDING_LOCALES.map((locale) => (
            <TwinActions key={locale} t={t} page={page} locale={locale} onChanged={onChanged} />
          ))}
        </div>
      ) : (
        <p className="text-slate-700">{t('landingPage.saveFirst')}</p>
      )}
    </div>
  );
}

type EditorForm = ApiForm<v.InferInput<typeof LandingPageChangeSchema>, LandingPageChangeInput>;

function TwinFields({ t, form, locale, err }: { t: TFunction; form: EditorForm; locale: LandingLocale; err: (field: keyof LandingPageChangeInput) => string | undefined }) {
  const s = SUFFIX[locale];
  const { register, watch, formState } = form;
  const field = (name: 'title' | 'metaDescription' | 'intro' | 'body') => `${name}${s}` as const;
  const minutes = landingText(watch(field('intro')) ?? '', watch(field('body')) ?? '').minutes;
  const has = (name: 'title' | 'metaDescription' | 'intro' | 'body') => Boolean(formState.errors[field(name)]);
  return (
    <fieldset className="space-y-4 rounded-xl border border-slate-200 bg-white p-5" lang={locale} data-twin={locale}>
      <legend className="px-1 text-lg font-semibold text-ink">{t(`landingPage.twin.${locale}`)}</legend>
      <Field id={`landing-title-${locale}`} label={t('landingPage.title')} error={err(field('title'))}>
        {(c) => <input {...c} {...register(field('title'))} autoComplete="off" maxLength={200} className={controlClass(has('title'), 'h-11 w-full')} />}
      </Field>
      <Field id={`landing-meta-${locale}`} label={t('landingPage.metaDescription')} hint={t('landingPage.metaDescriptionHint')} error={err(field('metaDescription'))}>
        {(c) => <textarea {...c} {...register(field('metaDescription'))} rows={2} maxLength={320} className={controlClass(has('metaDescription'), 'w-full py-2')} />}
      </Field>
      <Field id={`landing-intro-${locale}`} label={t('landingPage.intro')} error={err(field('intro'))}>
        {(c) => <textarea {...c} {...register(field('intro'))} rows={3} maxLength={2000} className={controlClass(has('intro'), 'w-full py-2')} />}
      </Field>
      <Field id={`landing-body-${locale}`} label={t('landingPage.body')} hint={t('landingPage.bodyHint')} error={err(field('body'))}>
        {(c) => <textarea {...c} {...register(field('body'))} rows={14} maxLength={100_000} className={controlClass(has('body'), 'w-full py-2 font-mono text-sm')} />}
      </Field>
      <p className="text-sm text-slate-700" data-editor-reading-time={locale}>
        {t('landingPage.readingTime', { minutes })}
      </p>
    </fieldset>
  );
}

function TwinPreview({ t, locale, type, form, page }: { t: TFunction; locale: LandingLocale; type: LandingPageTypeValue; form: EditorForm; page: Loaded }) {
  const s = SUFFIX[locale];
  const title = form.watch(`title${s}`) ?? '';
  const intro = form.watch(`intro${s}`) ?? '';
  const body = form.watch(`body${s}`) ?? '';
  const images = page?.twins[locale]?.images ?? [];
  const pageT = supportI18n.getFixedT(locale, 'common');
  return (
    <section aria-labelledby={`landing-preview-${locale}`} className="rounded-xl border border-slate-200 bg-slate-50 p-5">
      <h2 id={`landing-preview-${locale}`} className="mb-4 text-lg font-semibold text-ink">
        {t(`landingPage.preview.${locale}`)}
      </h2>
      {title || body.trim() ? (
        <div className="rounded-lg bg-white p-4">
          <LandingPreview
            type={type}
            locale={locale}
            title={title}
            intro={intro}
            body={body}
            images={images.map((image) => ({
              key: image.key,
              alt: image.alt,
              ...(image.width ? { width: image.width } : {}),
              ...(image.height ? { height: image.height } : {}),
              ...(image.base ? { base: image.base, widths: image.widths } : {}),
            }))}
            readingTime={(minutes) => pageT('articles.readingTime', { minutes })}
            advertsPlaceholder={t('landingPage.advertsPlaceholder')}
          />
        </div>
      ) : (
        <p className="text-slate-700">{t('landingPage.previewEmpty')}</p>
      )}
    </section>
  );
}

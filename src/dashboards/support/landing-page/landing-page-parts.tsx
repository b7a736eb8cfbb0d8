/**
 * One language of an SEO page beyond its texts (landing-pages/{id}/): published or not (publishlandingpage),
 * its images with alt text (landingpageimage: through the picture pipeline; deletelandingpageimage: the
 * spec's image delete) and deleting it (deletelandingpage, asked first).
 */
import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { supportSeoPagesApi } from '#lib/api/support-seo-pages.ts';
import { formatDate } from '#lib/format.ts';
import type { LandingLocale, SupportLandingPage, SupportLandingText } from '#lib/schemas/landing-page.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { describeFailure } from '../../../components/form/form-errors.ts';
import { SendConfirmation } from '../../shared/confirm-before-sending.tsx';
import { failureKey, noticeText, primaryButton, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { landingPageHref } from '../landing-pages/LandingPagesScreen.tsx';

type Props = { t: TFunction; page: SupportLandingPage; locale: LandingLocale; onChanged: (page: SupportLandingPage) => void };

/** Runs a call of this panel: 401 signs in again; another failure becomes the panel's notice (a message key). */
async function attempt<T>(run: () => Promise<T>, setNotice: (key: string | null) => void): Promise<T | null> {
  setNotice(null);
  try {
    return await run();
  } catch (error) {
    if (describeFailure(error, []).notice === 'unauthorized') {
      goToLogin();
      return null;
    }
    setNotice(failureKey(error));
    return null;
  }
}

export function TwinActions({ t, page, locale, onChanged }: Props) {
  const twin = page.twins[locale];
  return (
    <section aria-labelledby={`landing-twin-${locale}`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-5" data-twin-actions={locale}>
      <h2 id={`landing-twin-${locale}`} className="text-lg font-semibold text-ink">
        {t(`landingPage.twin.${locale}`)}
      </h2>
      {twin ? <WrittenTwin t={t} page={page} twin={twin} locale={locale} onChanged={onChanged} /> : <p className="text-slate-700">{t('landingPage.notWritten')}</p>}
    </section>
  );
}

function WrittenTwin({ t, page, twin, locale, onChanged }: Props & { twin: SupportLandingText }) {
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = page.paths[locale];
  async function publish(published: boolean) {
    setBusy(true);
    const saved = await attempt(() => supportSeoPagesApi.publish(twin.id, published), setNotice);
    setBusy(false);
    if (!saved) return;
    onChanged(saved);
    toast({ title: t(published ? 'landingPage.publishedToast' : 'landingPage.unpublishedToast'), variant: 'success' });
  }
  return (
    <>
      <FormNotice message={noticeText(t, notice)} />
      <p className="text-slate-800" data-published={twin.published}>
        {twin.published && twin.publishedAt ? t('landingPage.statePublished', { date: formatDate(twin.publishedAt) }) : t('landingPage.stateDraft')}
      </p>
      <p className="text-sm text-slate-700">
        {t('landingPage.address')}{' '}
        {twin.published ? (
          <a href={path} className="font-mono text-brand-700 underline" target="_blank" rel="noopener">
            {path}
          </a>
        ) : (
          <span className="font-mono">{path}</span>
        )}
      </p>
      <p className="text-sm text-slate-700">{t('landingPage.rebuildNote')}</p>
      <div className="flex flex-wrap gap-3">
        {twin.published ? (
          <button type="button" className={secondaryButton} disabled={busy} onClick={() => void publish(false)}>
            {t('landingPage.unpublish', { language: t(`landingPages.languages.${locale}`) })}
          </button>
        ) : (
          <button type="button" className={primaryButton} disabled={busy} onClick={() => void publish(true)}>
            {t('landingPage.publish', { language: t(`landingPages.languages.${locale}`) })}
          </button>
        )}
      </div>
      <Images t={t} twin={twin} locale={locale} onChanged={onChanged} />
      <DeleteTwin t={t} page={page} twin={twin} locale={locale} onChanged={onChanged} />
    </>
  );
}

function Images({ t, twin, locale, onChanged }: { t: TFunction; twin: SupportLandingText; locale: LandingLocale; onChanged: (page: SupportLandingPage) => void }) {
  const [notice, setNotice] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [alt, setAlt] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);

  async function upload(event: FormEvent) {
    event.preventDefault();
    setFileError(null);
    if (!file) {
      setFileError('required');
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      const saved = await supportSeoPagesApi.uploadImage(twin.id, alt.trim(), file);
      onChanged(saved);
      setAlt('');
      setFile(null);
      setFormKey((key) => key + 1);
      toast({ title: t('landingPage.images.uploaded'), variant: 'success' });
    } catch (error) {
      const failure = describeFailure(error, ['file', 'Alt']);
      if (failure.notice === 'unauthorized') return goToLogin();
      if (failure.fields['file']) setFileError(failure.fields['file']);
      else setNotice(failure.fields['Alt'] ?? failure.notice);
    } finally {
      setBusy(false);
    }
  }
  async function remove(key: string) {
    const saved = await attempt(() => supportSeoPagesApi.removeImage(twin.id, key), setNotice);
    if (!saved) return;
    onChanged(saved);
    toast({ title: t('landingPage.images.deleted'), variant: 'success' });
  }
  const fileText = fileError ? t([`common:pictureRefusal.${fileError}`, `validation.${fileError}`, 'validation.invalid']) : undefined;
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      <h3 className="font-semibold text-ink">{t('landingPage.images.title')}</h3>
      <FormNotice message={noticeText(t, notice)} />
      {twin.images.length === 0 ? (
        <p className="text-sm text-slate-700">{t('landingPage.images.none')}</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {twin.images.map((image) => (
            <li key={image.key} className="space-y-2 rounded-lg border border-slate-200 p-2" data-image={image.key}>
              <img src={`/media/${image.key}`} alt={image.alt} width={image.width ?? undefined} height={image.height ?? undefined} className="h-auto w-full rounded" loading="lazy" />
              <p className="text-sm text-slate-700">{image.alt ? t('landingPage.images.altShown', { alt: image.alt }) : t('landingPage.images.noAlt')}</p>
              <button type="button" className={smallButton} onClick={() => void remove(image.key)} aria-label={t('landingPage.images.deleteNamed', { alt: image.alt || image.key })}>
                {t('landingPage.images.delete')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form key={formKey} noValidate onSubmit={(event) => void upload(event)} className="space-y-3" aria-label={t('landingPage.images.uploadTitle', { language: t(`landingPages.languages.${locale}`) })}>
        <Field id={`landing-image-file-${locale}`} label={t('landingPage.images.file')} hint={t('landingPage.images.fileHint')} error={fileText}>
          {(c) => (
            <input
              {...c}
              type="file"
              accept="image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              className="block w-full text-sm"
            />
          )}
        </Field>
        <Field id={`landing-image-alt-${locale}`} label={t('landingPage.images.alt')} hint={t('landingPage.images.altHint')}>
          {(c) => <input {...c} value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={300} className={controlClass(false, 'h-11 w-full')} />}
        </Field>
        <button type="submit" className={secondaryButton} disabled={busy}>
          {busy ? t('landingPage.images.uploading') : t('landingPage.images.upload')}
        </button>
      </form>
    </div>
  );
}

function DeleteTwin({ t, page, twin, locale, onChanged }: Props & { twin: SupportLandingText }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  async function remove() {
    setBusy(true);
    const done = await attempt(async () => {
      await supportSeoPagesApi.remove(twin.id);
      return true;
    }, setNotice);
    setBusy(false);
    if (!done) return;
    toast({ title: t('landingPage.deleted'), variant: 'success' });
    const other = page.twins[locale === 'da' ? 'en' : 'da'];
    if (!other) return supportRouter.open(supportPath('landingPages'), true);
    // The twin stays: shown at its own id (the same screen when it is the one open).
    const remaining = await attempt(() => supportSeoPagesApi.page(other.id), setNotice);
    if (remaining) onChanged(remaining);
    supportRouter.open(landingPageHref(other.id), true);
  }
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      <FormNotice message={noticeText(t, notice)} />
      {asking ? (
        <SendConfirmation
          id={`landing-delete-confirm-${locale}`}
          text={t('landingPage.confirm.text', { title: twin.title, language: t(`landingPages.languages.${locale}`) })}
          confirmLabel={t('landingPage.confirm.confirm')}
          busyLabel={t('form.saving')}
          cancelLabel={t('landingPage.confirm.cancel')}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" className={secondaryButton} onClick={() => setAsking(true)}>
          {t('landingPage.delete', { language: t(`landingPages.languages.${locale}`) })}
        </button>
      )}
    </div>
  );
}

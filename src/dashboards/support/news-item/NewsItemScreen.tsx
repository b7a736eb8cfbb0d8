/**
 * /support/news/{id}/ and /support/news/new/ (Administration): one news item for advertisers: its language,
 * title, Markdown text (with a preview exactly as the dashboard shows it, #lib/markdown.ts), first day
 * (empty: a draft), end day and pinned (POST news); deleting asks first (POST deletenews). A refused form
 * keeps what was typed and shows the server's messages at their fields; leaving a changed form asks first.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { supportNewsApi } from '#lib/api/support-news.ts';
import { describeFailure } from '../../../components/form/form-errors.ts';
import { renderMarkdown } from '#lib/markdown.ts';
import { NewsChangeSchema, type NewsChangeInput, type SupportNewsItem } from '#lib/schemas/news.ts';
import { toast } from '#lib/stores/toasts.ts';
import { CheckboxField, Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { DayInput } from '../../../components/form/DayInput.tsx';
import { dayFieldText } from '#lib/format.ts';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { SendConfirmation } from '../../shared/confirm-before-sending.tsx';
import { fieldText, noticeText, primaryButton, secondaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { ItemScreen, itemLoader } from '../item-screen.tsx';
import { newsItemHref } from '../news/NewsScreen.tsx';
import { NewsLocaleOptions } from './news-parts.tsx';

export default function NewsItemScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <NewsLoader key={id} id={id} />;
}

/** undefined: a new news item. */
type Loaded = SupportNewsItem | undefined;

function NewsLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const isNew = id === 'new';
  const load = itemLoader(id, (newsId, signal) => supportNewsApi.item(newsId, signal));
  const { state, setData, reload } = useScreenData<Loaded | 'notFound'>((signal) => (isNew ? Promise.resolve(undefined) : load(signal)));
  const title = state.status === 'ready' && state.data && state.data !== 'notFound' ? state.data.title : isNew ? t('newsItem.newTitle') : t('screens.newsItem');
  return (
    <ItemScreen
      width="max-w-3xl"
      catalog="newsItem"
      list='news'
      title={title}
      state={state}
      onRetry={reload}
    >
      {(item) => <NewsForm t={t} item={item} onSaved={setData} />}
    </ItemScreen>
  );
}

/** The form's values: the call's fields as the item has them. */
const valuesOf = (item: SupportNewsItem | undefined) => ({
  Id: item?.id ?? '',
  LocaleId: item?.locale ?? 'da',
  Title: item?.title ?? '',
  Body: item?.body ?? '',
  PublishFrom: dayFieldText(item?.publishFrom ?? ''),
  EndsOn: dayFieldText(item?.endsOn ?? ''),
  Pinned: item?.pinned ?? false,
});

function NewsForm({ t, item, onSaved }: { t: TFunction; item: SupportNewsItem | undefined; onSaved: (item: SupportNewsItem) => void }) {
  const form = useApiForm({
    schema: NewsChangeSchema,
    defaultValues: valuesOf(item),
    onUnauthorized: goToLogin,
    onValid: async (values: NewsChangeInput) => {
      const saved = await supportNewsApi.save(values);
      form.reset(valuesOf(saved));
      if (item) {
        onSaved(saved);
        toast({ title: t('newsItem.saved'), variant: 'success' });
      } else {
        toast({ title: t('newsItem.created'), variant: 'success' });
        supportRouter.open(newsItemHref(saved.id), true);
      }
    },
  });
  const {
    register,
    watch,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const err = (field: keyof typeof errors) => fieldText(t, errors[field]?.message);
  const body = watch('Body');

  return (
    <div className="mt-6 space-y-8">
      {item ? (
        <p className="text-slate-700" data-news-state={item.state}>
          {t('newsItem.state', { state: t(`news.states.${item.state}`) })}
        </p>
      ) : null}
      <form noValidate onSubmit={form.submit} className="space-y-5 rounded-xl border border-slate-200 bg-white p-5">
        <FormNotice message={noticeText(t, form.notice) ?? err('Id') ?? null} />
        <Field id="news-locale" label={t('newsItem.language')} required error={err('LocaleId')}>
          {(c) => (
            <select {...c} {...register('LocaleId')} className={controlClass(Boolean(errors.LocaleId), 'h-11')}>
              <NewsLocaleOptions t={t} />
            </select>
          )}
        </Field>
        <Field id="news-title" label={t('newsItem.title')} required error={err('Title')}>
          {(c) => <input {...c} {...register('Title')} autoComplete="off" maxLength={200} className={controlClass(Boolean(errors.Title), 'h-11 w-full')} />}
        </Field>
        <Field id="news-body" label={t('newsItem.body')} hint={t('newsItem.bodyHint')} required error={err('Body')}>
          {(c) => <textarea {...c} {...register('Body')} rows={8} maxLength={20_000} className={controlClass(Boolean(errors.Body), 'w-full py-2')} />}
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field id="news-publish-from" label={t('newsItem.publishFrom')} hint={t('newsItem.publishFromHint')} error={err('PublishFrom')}>
            {(c) => <DayInput {...c} {...register('PublishFrom')} placeholder={t('dayField.placeholder')} className={controlClass(Boolean(errors.PublishFrom), 'h-11')} />}
          </Field>
          <Field id="news-ends-on" label={t('newsItem.endsOn')} hint={t('newsItem.endsOnHint')} error={err('EndsOn')}>
            {(c) => <DayInput {...c} {...register('EndsOn')} placeholder={t('dayField.placeholder')} className={controlClass(Boolean(errors.EndsOn), 'h-11')} />}
          </Field>
        </div>
        <CheckboxField id="news-pinned" label={<span className="font-medium">{t('newsItem.pinned')}</span>} error={err('Pinned')}>
          {(c) => <input {...c} {...register('Pinned')} type="checkbox" className="mt-0.5 h-5 w-5 rounded border-slate-400" />}
        </CheckboxField>
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('form.saving') : t('form.save')}
        </button>
      </form>
      <section aria-labelledby="news-preview-title" className="rounded-xl border border-slate-200 bg-slate-50 p-5">
        <h2 id="news-preview-title" className="text-lg font-semibold text-ink">
          {t('newsItem.preview')}
        </h2>
        {body.trim() ? (
          <div className="markdown-text mt-3 text-slate-800" data-news-preview dangerouslySetInnerHTML={{ __html: renderMarkdown(body) }} />
        ) : (
          <p className="mt-3 text-slate-700">{t('newsItem.previewEmpty')}</p>
        )}
      </section>
      {item ? <DeleteNews t={t} item={item} /> : null}
    </div>
  );
}

function DeleteNews({ t, item }: { t: TFunction; item: SupportNewsItem }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  async function remove() {
    setBusy(true);
    setNotice(null);
    try {
      await supportNewsApi.remove(item.id);
      toast({ title: t('newsItem.deleted'), variant: 'success' });
      supportRouter.open(supportPath('news'), true);
    } catch (error) {
      const failure = describeFailure(error, []);
      if (failure.notice === 'unauthorized') return goToLogin();
      setNotice(failure.notice);
      setBusy(false);
    }
  }
  return (
    <div className="space-y-3">
      <FormNotice message={noticeText(t, notice)} />
      {asking ? (
        <SendConfirmation
          id="news-delete-confirm"
          text={t('newsItem.confirm.text', { title: item.title })}
          confirmLabel={t('newsItem.confirm.confirm')}
          busyLabel={t('form.saving')}
          cancelLabel={t('newsItem.confirm.cancel')}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" className={secondaryButton} onClick={() => setAsking(true)}>
          {t('newsItem.delete')}
        </button>
      )}
    </div>
  );
}

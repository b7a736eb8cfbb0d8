/**
 * Messages of adverts/{id}/messages/: what the advertiser was told in their backend (statements of reasons,
 * outcomes, support's messages), newest first (GET advertmessages), and a form to send a message (POST
 * advertmessages): one text for both languages, or an English text beside the Danish one. It appears on the
 * advertiser's backend dashboard and is emailed to them.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import { formatDateTime } from '#lib/format.ts';
import { SendAdvertMessageSchema, type AdvertMessageItem, type AdvertProfile, type SendAdvertMessageInput } from '#lib/schemas/support-adverts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { SECTION_PAGE_SIZE, SectionData, advertHref } from './advert-sections.tsx';
import { Paging } from '../paging.tsx';

export function MessagesSection({ t, advert, skip }: { t: TFunction; advert: AdvertProfile; skip: number }) {
  const [sent, setSent] = useState(0);
  return (
    <div className="space-y-8">
      <SendForm t={t} advert={advert} onSent={() => setSent((n) => n + 1)} />
      <section aria-labelledby="advert-messages">
        <h2 id="advert-messages" className="text-lg font-semibold text-ink">
          {t('advert.messages.title')}
        </h2>
        <SectionData key={sent} load={(signal) => supportAdvertsApi.messages(advert.id, { Skip: skip, Take: SECTION_PAGE_SIZE }, signal)} loadError={t('advert.loadSectionError')}>
          {(list) =>
            list.items.length === 0 ? (
              <p className="mt-4 text-slate-700">{t('advert.messages.empty')}</p>
            ) : (
              <>
                <ul className="mt-4 space-y-3">
                  {list.items.map((message) => (
                    <MessageCard key={message.id} t={t} message={message} />
                  ))}
                </ul>
                <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={SECTION_PAGE_SIZE} href={(next) => advertHref(advert.id, 'messages', '', next)} />
              </>
            )
          }
        </SectionData>
      </section>
    </div>
  );
}

function MessageCard({ t, message }: { t: TFunction; message: AdvertMessageItem }) {
  const sameText = message.titleDa === message.titleEn && message.bodyDa === message.bodyEn;
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4" data-message={message.id}>
      <p className="text-sm text-slate-600">
        {formatDateTime(message.createdAt)} · {message.read ? t('advert.messages.read') : t('advert.messages.unread')}
      </p>
      <h3 className="mt-1 font-semibold text-ink" lang="da">
        {message.titleDa}
      </h3>
      <p className="mt-1 whitespace-pre-line text-slate-800" lang="da">
        {message.bodyDa}
      </p>
      {sameText ? null : (
        <div className="mt-3 border-t border-slate-200 pt-3" lang="en">
          <p className="text-xs font-semibold uppercase text-slate-600">{t('advert.messages.english')}</p>
          <h3 className="font-semibold text-ink">{message.titleEn}</h3>
          <p className="mt-1 whitespace-pre-line text-slate-800">{message.bodyEn}</p>
        </div>
      )}
    </li>
  );
}

function SendForm({ t, advert, onSent }: { t: TFunction; advert: AdvertProfile; onSent: () => void }) {
  const [done, setDone] = useState(false);
  const empty = { Id: advert.id, Title: '', Body: '', TitleEn: '', BodyEn: '' };
  const form = useApiForm({
    schema: SendAdvertMessageSchema,
    defaultValues: empty,
    onUnauthorized: goToLogin,
    onValid: async (values: SendAdvertMessageInput) => {
      await supportAdvertsApi.sendMessage(values);
      form.reset(empty);
      setDone(true);
      onSent();
    },
  });
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  return (
    <section aria-labelledby="advert-send-message" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="advert-send-message" className="text-lg font-semibold text-ink">
        {t('advert.messages.sendTitle')}
      </h2>
      <p className="mt-1 max-w-prose text-sm text-slate-700">{t('advert.messages.sendIntro')}</p>
      <form noValidate onSubmit={(event) => { setDone(false); void form.submit(event); }} className="mt-4 space-y-5">
        <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
        {done ? (
          <p role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-emerald-900">
            {t('advert.messages.sent')}
          </p>
        ) : null}
        <Field id="message-title" label={t('advert.messages.messageTitle')} required error={fieldText(t, errors.Title?.message)}>
          {(c) => <input {...c} {...register('Title')} maxLength={200} className={controlClass(Boolean(errors.Title), 'h-11 w-full')} />}
        </Field>
        <Field id="message-body" label={t('advert.messages.body')} required error={fieldText(t, errors.Body?.message)}>
          {(c) => <textarea {...c} {...register('Body')} rows={5} maxLength={4000} className={controlClass(Boolean(errors.Body), 'w-full py-2')} />}
        </Field>
        <details className="rounded-lg border border-slate-200 p-3" open={Boolean(errors.TitleEn || errors.BodyEn)}>
          <summary className="cursor-pointer text-sm font-semibold text-ink">{t('advert.messages.englishToggle')}</summary>
          <p className="mt-1 text-sm text-slate-700">{t('advert.messages.englishHint')}</p>
          <div className="mt-3 space-y-4">
            <Field id="message-title-en" label={`${t('advert.messages.messageTitleEn')} (${t('form.optional')})`} error={fieldText(t, errors.TitleEn?.message)}>
              {(c) => <input {...c} {...register('TitleEn')} maxLength={200} lang="en" className={controlClass(Boolean(errors.TitleEn), 'h-11 w-full')} />}
            </Field>
            <Field id="message-body-en" label={`${t('advert.messages.bodyEn')} (${t('form.optional')})`} error={fieldText(t, errors.BodyEn?.message)}>
              {(c) => <textarea {...c} {...register('BodyEn')} rows={4} maxLength={4000} lang="en" className={controlClass(Boolean(errors.BodyEn), 'w-full py-2')} />}
            </Field>
          </div>
        </details>
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('advert.messages.sending') : t('advert.messages.send')}
        </button>
      </form>
    </section>
  );
}

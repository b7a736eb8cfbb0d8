/**
 * The review form of every advert (issue 6): name, rating (1-5 stars), text and the visitor's mobile
 * number, confirmed by a code by SMS ("Send code": reviewcode), then sent with the code
 * (addprofilereview). react-hook-form with the API's own valibot schema (useApiForm): the API's field
 * errors land at their fields and nothing typed is lost. The review waits for support's approval, and the
 * dialog says so. A native modal <dialog>: focus stays inside, Escape closes it.
 *
 * An island mounted on demand, like the report form: the advert page's "Write a review" button is plain
 * HTML, and its first click loads this component (and React) and mounts it (review-dialog.tsx).
 */
import { useCallback, useId, useRef, useState } from 'react';
import { DialogFrame, useOpenerDialog } from './opener-dialog.tsx';
import * as v from 'valibot';
import { AddProfileReviewSchema, ReviewCodeSchema, REVIEW_TEXT_MAX, type AddProfileReviewInput } from '#lib/schemas/reviews.ts';
import { frontendApi } from '#lib/api/frontend.ts';
import type { Messages } from '#lib/i18n/messages.ts';
import type { Locale } from '#lib/i18n/locales.ts';
import { Field, FormNotice, controlClass } from './form/Field.tsx';
import { useApiForm } from './form/use-api-form.ts';
import { describeFailure } from './form/form-errors.ts';
import { accountTexts } from './account/texts.ts';

type FormValues = v.InferInput<typeof AddProfileReviewSchema>;

export type WriteReviewDialogProps = {
  messages: Messages;
  locale: Locale;
  advertId: number;
  advertName: string;
  /** The page's "Write a review" button: it opens the dialog, and gets the focus back when it closes. */
  opener: HTMLButtonElement;
};

const RATINGS = [5, 4, 3, 2, 1] as const;
const primaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70';
const secondaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-5 font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-70';

export default function WriteReviewDialog({ messages, locale, advertId, advertName, opener }: WriteReviewDialogProps) {
  const texts = accountTexts(messages);
  const { t, field } = texts;
  const id = useId();
  const [done, setDone] = useState(false);
  const doneRef = useRef(false);
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [sendingCode, setSendingCode] = useState(false);
  const [codeNotice, setCodeNotice] = useState<string | null>(null);

  const emptyValues = { ProfileId: advertId, Name: '', Text: '', Phone: '', Code: '' } as FormValues;
  const form = useApiForm({
    schema: AddProfileReviewSchema,
    defaultValues: emptyValues,
    onValid: async (values: AddProfileReviewInput) => {
      await frontendApi.addProfileReview(values);
      doneRef.current = true;
      setDone(true);
    },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;

  const reopen = useCallback(() => {
    if (doneRef.current) {
      doneRef.current = false;
      setDone(false);
      setCodeSentTo(null);
      form.reset();
    }
    form.setNotice(null);
    // form is stable for the component's life (react-hook-form keeps one control).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const { dialogRef, open, close, onClose } = useOpenerDialog(opener, reopen);

  /** "Send code": checks the number, asks for a code by SMS, and moves on to the code field. */
  const sendCode = async () => {
    setCodeNotice(null);
    form.clearErrors('Phone');
    const checked = v.safeParse(ReviewCodeSchema, { ProfileId: advertId, Phone: form.getValues('Phone'), Locale: locale });
    if (!checked.success) {
      form.setError('Phone', { type: 'validate', message: checked.issues[0]?.message ?? 'phone' }, { shouldFocus: true });
      return;
    }
    setSendingCode(true);
    try {
      const sent = await frontendApi.reviewCode(checked.output);
      setCodeSentTo(sent.phone);
      form.clearErrors('Code');
      form.setFocus('Code');
    } catch (error) {
      const failure = describeFailure(error, ['Phone', 'ProfileId']);
      if (failure.fields['Phone']) form.setError('Phone', { type: 'server', message: failure.fields['Phone'] }, { shouldFocus: true });
      else if (failure.fields['ProfileId']) setCodeNotice(field(failure.fields['ProfileId']) ?? null);
      else setCodeNotice(failure.status === 429 ? t('reviewForm.tooMany') : texts.notice(failure.notice));
    } finally {
      setSendingCode(false);
    }
  };

  const notice = field(errors.ProfileId?.message) ?? texts.notice(form.notice);
  const codeHintId = `${id}-code-state`;

  return (
    <>
      <DialogFrame id={id} dialogRef={dialogRef} open={open} onClose={onClose} title={t('reviewForm.title', { name: advertName })} closeLabel={t('reviewForm.close')}>
            {done ? (
              <div role="status" className="mt-4 space-y-4" data-review-receipt>
                <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900">{t('reviewForm.thanks')}</p>
                <p className="text-slate-700">{t('reviewForm.next')}</p>
                <button type="button" onClick={close} className={primaryButton}>
                  {t('reviewForm.close')}
                </button>
              </div>
            ) : (
              <form method="post" noValidate onSubmit={form.submit} className="mt-4 space-y-5">
                <p className="text-sm text-slate-700">{t('reviewForm.intro')}</p>
                <FormNotice message={notice} />
                <input type="hidden" {...register('ProfileId')} />
                <Field id={`${id}-name`} label={t('reviewForm.name')} required error={field(errors.Name?.message)}>
                  {(control) => (
                    <input {...control} type="text" autoComplete="given-name" maxLength={60} className={controlClass(Boolean(errors.Name), 'h-11')} {...register('Name')} />
                  )}
                </Field>
                <fieldset aria-describedby={errors.Rating ? `${id}-rating-error` : undefined}>
                  <legend className="text-sm font-semibold text-ink">
                    {t('reviewForm.rating')}
                    <span aria-hidden="true"> *</span>
                  </legend>
                  <div className="mt-2 flex flex-wrap gap-2">
                    {RATINGS.map((rating) => (
                      <label
                        key={rating}
                        className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
                      >
                        <input
                          type="radio"
                          value={String(rating)}
                          aria-invalid={errors.Rating ? 'true' : 'false'}
                          className="h-4 w-4 accent-brand-700"
                          {...register('Rating')}
                        />
                        <span aria-hidden="true" className="text-amber-500">
                          {'★'.repeat(rating)}
                        </span>
                        <span className="text-sm text-slate-800">{t('reviewForm.stars', { count: rating })}</span>
                      </label>
                    ))}
                  </div>
                  {errors.Rating ? (
                    <p id={`${id}-rating-error`} className="mt-1 text-sm text-red-700">
                      {field(errors.Rating.message)}
                    </p>
                  ) : null}
                </fieldset>
                <Field id={`${id}-text`} label={t('reviewForm.text')} hint={t('reviewForm.textHint')} required error={field(errors.Text?.message)}>
                  {(control) => (
                    <textarea {...control} rows={5} maxLength={REVIEW_TEXT_MAX} className={controlClass(Boolean(errors.Text), 'py-2')} {...register('Text')} />
                  )}
                </Field>
                <div className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
                  <Field id={`${id}-phone`} label={t('reviewForm.phone')} hint={t('reviewForm.phoneHint')} required error={field(errors.Phone?.message)}>
                    {(control) => (
                      <input
                        {...control}
                        type="tel"
                        autoComplete="tel-national"
                        inputMode="tel"
                        className={controlClass(Boolean(errors.Phone), 'h-11 sm:max-w-64')}
                        {...register('Phone')}
                      />
                    )}
                  </Field>
                  <FormNotice message={codeNotice} />
                  <button type="button" onClick={() => void sendCode()} disabled={sendingCode} className={secondaryButton}>
                    {sendingCode ? t('reviewForm.sendingCode') : codeSentTo ? t('reviewForm.newCode') : t('reviewForm.sendCode')}
                  </button>
                  <p id={codeHintId} role="status" className={`text-sm ${codeSentTo ? 'font-medium text-emerald-800' : 'text-slate-700'}`}>
                    {codeSentTo ? t('reviewForm.codeSent', { phone: codeSentTo }) : t('reviewForm.codeFirst')}
                  </p>
                  <Field id={`${id}-code`} label={t('reviewForm.code')} required error={field(errors.Code?.message)}>
                    {(control) => (
                      <input
                        {...control}
                        aria-describedby={[control['aria-describedby'], codeHintId].filter(Boolean).join(' ')}
                        type="text"
                        inputMode="numeric"
                        autoComplete="one-time-code"
                        maxLength={6}
                        className={controlClass(Boolean(errors.Code), 'h-11 text-lg tracking-widest sm:max-w-48')}
                        {...register('Code')}
                      />
                    )}
                  </Field>
                </div>
                <div className="flex flex-col-reverse gap-3 md:flex-row md:justify-end">
                  <button type="button" onClick={close} className={secondaryButton}>
                    {t('reviewForm.cancel')}
                  </button>
                  <button type="submit" disabled={isSubmitting} className={primaryButton}>
                    {isSubmitting ? t('reviewForm.sending') : t('reviewForm.send')}
                  </button>
                </div>
              </form>
            )}
      </DialogFrame>
    </>
  );
}

/**
 * The report form of every advert (reportadvert): reason (suspected minor and trafficking first), details,
 * the advert URL (prefilled), name and email (optional for minors and trafficking, so a reporter can stay
 * anonymous), and a good-faith statement. react-hook-form with the API's own valibot schema; the API's
 * problem+json field errors are shown at their fields and nothing typed is lost. A native modal <dialog>:
 * focus stays inside and Escape closes it. Success shows the report's number.
 *
 * An island mounted on demand: the advert page's "Report" button is plain HTML, and its first click loads
 * this component (and React) and mounts it (see report-dialog.tsx), so advert pages ship no React until a
 * visitor reports. The component opens at once and reopens on every later click of that button.
 */
import { useCallback, useId, useRef, useState } from 'react';
import { DialogFrame, useOpenerDialog } from './opener-dialog.tsx';
import { useForm, useWatch } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import type * as v from 'valibot';
import { ANONYMOUS_REASONS, REPORT_REASONS, ReportAdvertSchema, type ReportAdvertInput, type ReportReason } from '#lib/schemas/report-advert.ts';
import { frontendApi } from '#lib/api/frontend.ts';
import { ApiError, HttpError } from '#lib/api/errors.ts';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { validationKey } from '#lib/i18n/validation.ts';

type FormValues = v.InferInput<typeof ReportAdvertSchema>;
type FieldName = 'Reason' | 'Details' | 'Url' | 'Name' | 'Email' | 'GoodFaith';
const FIELDS: FieldName[] = ['Reason', 'Details', 'Url', 'Name', 'Email', 'GoodFaith'];

export type ReportAdvertDialogProps = {
  messages: Messages;
  advertId: number;
  /** The advert's canonical URL, prefilled. */
  advertUrl: string;
  /** The page's "Report" button: it opens the dialog, and gets the focus back when it closes. */
  opener: HTMLButtonElement;
};

export default function ReportAdvertDialog({ messages, advertId, advertUrl, opener }: ReportAdvertDialogProps) {
  const t = messagesT(messages);
  const id = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<{ id: number } | null>(null);
  const receiptRef = useRef(false);

  const {
    register,
    handleSubmit,
    setError,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FormValues, unknown, ReportAdvertInput>({
    resolver: valibotResolver<FormValues, unknown, ReportAdvertInput>(ReportAdvertSchema),
    defaultValues: { AdvertId: advertId, Details: '', Url: advertUrl, Name: '', Email: '', GoodFaith: false },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const reason = useWatch({ control, name: 'Reason' }) as ReportReason | undefined;
  const anonymousAllowed = reason !== undefined && ANONYMOUS_REASONS.includes(reason);

  const reopen = useCallback(() => {
    if (receiptRef.current) {
      receiptRef.current = false;
      setReceipt(null);
      reset({ AdvertId: advertId, Details: '', Url: advertUrl, Name: '', Email: '', GoodFaith: false });
    }
    setFormError(null);
  }, [advertId, advertUrl, reset]);
  const { dialogRef, open, close, onClose } = useOpenerDialog(opener, reopen);

  const translate = (message: string) => t(validationKey(message, (key) => key in messages));

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await frontendApi.reportAdvert({
        AdvertId: values.AdvertId,
        Reason: values.Reason,
        Details: values.Details,
        Url: values.Url,
        Name: values.Name,
        Email: values.Email,
        GoodFaith: values.GoodFaith,
      });
      receiptRef.current = true;
      setReceipt({ id: answer.id });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fieldErrors.length > 0) {
        let shown = false;
        for (const fieldError of error.fieldErrors) {
          const name = FIELDS.find((field) => field.toLowerCase() === fieldError.field.toLowerCase());
          if (name) {
            setError(name, { type: 'server', message: fieldError.message }, { shouldFocus: !shown });
            shown = true;
          } else {
            setFormError(translate(fieldError.message));
          }
        }
      } else if (error instanceof ApiError && error.status === 404) {
        setFormError(t('report.gone'));
      } else if (error instanceof HttpError && error.status === 429) {
        setFormError(t('report.tooMany'));
      } else if (error instanceof TypeError) {
        setFormError(t('errors.network'));
      } else {
        console.error('Report could not be sent', error);
        setFormError(t('errors.generic'));
      }
    }
  });

  const input = 'mt-1 block w-full rounded-lg border bg-white px-3 text-base text-ink focus-visible:border-blue-700';
  const fieldError = (name: FieldName) =>
    errors[name]?.message ? (
      <p id={`${id}-${name}-error`} className="mt-1 text-sm text-red-700">
        {translate(errors[name].message)}
      </p>
    ) : null;
  const describedBy = (name: FieldName, extra?: string) =>
    [errors[name] ? `${id}-${name}-error` : null, extra].filter(Boolean).join(' ') || undefined;
  const border = (name: FieldName) => (errors[name] ? 'border-red-600' : 'border-slate-300');

  return (
    <>
      <DialogFrame id={id} dialogRef={dialogRef} open={open} onClose={onClose} title={t('report.title')} closeLabel={t('report.close')}>
            {receipt ? (
              <div role="status" className="mt-4 space-y-4" data-report-receipt>
                <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900">
                  {t('report.thanks', { id: receipt.id })}
                </p>
                <p className="text-slate-700">{t('report.next')}</p>
                <button
                  type="button"
                  onClick={close}
                  className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
                >
                  {t('report.close')}
                </button>
              </div>
            ) : (
              <form method="post" noValidate onSubmit={submit} className="mt-4 space-y-5">
                <p className="text-sm text-slate-700">{t('report.intro')}</p>
                {formError ? (
                  <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
                    {formError}
                  </p>
                ) : null}
                <input type="hidden" {...register('AdvertId')} />
                <fieldset aria-describedby={describedBy('Reason')}>
                  <legend className="text-sm font-semibold text-ink">{t('report.reason')}</legend>
                  <div className="mt-2 space-y-1">
                    {REPORT_REASONS.map((value) => (
                      <label key={value} className="flex min-h-10 cursor-pointer items-start gap-3 rounded-md px-1 py-1.5 hover:bg-slate-50">
                        <input type="radio" value={value} className="mt-1 h-4 w-4 accent-brand-700" {...register('Reason')} />
                        <span className="text-sm text-slate-800">{t(`report.reason_${value}`)}</span>
                      </label>
                    ))}
                  </div>
                  {fieldError('Reason')}
                </fieldset>
                <div>
                  <label htmlFor={`${id}-details`} className="block text-sm font-semibold text-ink">
                    {t('report.details')}
                  </label>
                  <textarea
                    id={`${id}-details`}
                    rows={4}
                    aria-invalid={errors.Details ? 'true' : 'false'}
                    aria-describedby={describedBy('Details')}
                    className={`${input} py-2 ${border('Details')}`}
                    {...register('Details')}
                  />
                  {fieldError('Details')}
                </div>
                <div>
                  <label htmlFor={`${id}-url`} className="block text-sm font-semibold text-ink">
                    {t('report.url')}
                  </label>
                  <input
                    id={`${id}-url`}
                    type="text"
                    inputMode="url"
                    aria-invalid={errors.Url ? 'true' : 'false'}
                    aria-describedby={describedBy('Url')}
                    className={`${input} h-11 ${border('Url')}`}
                    {...register('Url')}
                  />
                  {fieldError('Url')}
                </div>
                <div className="grid gap-4 md:grid-cols-2">
                  <div>
                    <label htmlFor={`${id}-name`} className="block text-sm font-semibold text-ink">
                      {t('report.name')} {anonymousAllowed ? <span className="font-normal text-muted">({t('report.optional')})</span> : null}
                    </label>
                    <input
                      id={`${id}-name`}
                      type="text"
                      autoComplete="name"
                      aria-invalid={errors.Name ? 'true' : 'false'}
                      aria-describedby={describedBy('Name')}
                      className={`${input} h-11 ${border('Name')}`}
                      {...register('Name')}
                    />
                    {fieldError('Name')}
                  </div>
                  <div>
                    <label htmlFor={`${id}-email`} className="block text-sm font-semibold text-ink">
                      {t('report.email')} {anonymousAllowed ? <span className="font-normal text-muted">({t('report.optional')})</span> : null}
                    </label>
                    <input
                      id={`${id}-email`}
                      type="email"
                      autoComplete="email"
                      inputMode="email"
                      aria-invalid={errors.Email ? 'true' : 'false'}
                      aria-describedby={describedBy('Email')}
                      className={`${input} h-11 ${border('Email')}`}
                      {...register('Email')}
                    />
                    {fieldError('Email')}
                  </div>
                </div>
                {anonymousAllowed ? <p className="-mt-2 text-sm text-slate-700">{t('report.anonymousNote')}</p> : null}
                <div>
                  <label className="flex cursor-pointer items-start gap-3">
                    <input
                      type="checkbox"
                      aria-invalid={errors.GoodFaith ? 'true' : 'false'}
                      aria-describedby={describedBy('GoodFaith')}
                      className="mt-1 h-4 w-4 accent-brand-700"
                      {...register('GoodFaith')}
                    />
                    <span className="text-sm text-slate-800">{t('report.goodFaith')}</span>
                  </label>
                  {fieldError('GoodFaith')}
                </div>
                <div className="flex flex-col-reverse gap-3 md:flex-row md:justify-end">
                  <button
                    type="button"
                    onClick={close}
                    className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 px-5 font-semibold text-slate-800 hover:bg-slate-50"
                  >
                    {t('report.cancel')}
                  </button>
                  <button
                    type="submit"
                    disabled={isSubmitting}
                    className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
                  >
                    {isSubmitting ? t('report.sending') : t('report.send')}
                  </button>
                </div>
              </form>
            )}
      </DialogFrame>
    </>
  );
}

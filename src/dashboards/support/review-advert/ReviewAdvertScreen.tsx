/**
 * /support/review-adverts/{id}/ (Support): one advert for review (GET reviewadvert). On top the advert, its
 * owner and the risk signals with what they rest on (the words found; other adverts with the same phone or
 * picture, each linked to its own review). Then every field with its approved and proposed value; each
 * pending field gets a choice (approve, modify with support's value for the plain text fields, refuse with a
 * reason), and all choices are saved at once (POST reviewadvert with Fields). A refused save keeps the
 * choices and shows the server's errors at their rows. A new advert is approved (its owner must be
 * verified: 409 `notVerified` says so and links to the validation queue) or declined under a rule of the
 * terms with a reason, after a confirmation. Pending pictures and videos are approved or declined one by
 * one with the media calls (approveimageitem, …).
 */
import { useState, type ChangeEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { TFunction } from 'i18next';
import { supportApi, type ReviewFieldDecision } from '#lib/api/support.ts';
import { ApiError, fieldErrorsOf } from '#lib/api/errors.ts';
import { formatDateTime } from '#lib/format.ts';
import type { TermsRule } from '#lib/schemas/moderation.ts';
import type { BothNames, ReviewAction, ReviewAdvertAnswer, ReviewField, ReviewFieldRow, ReviewNames, ReviewValues } from '#lib/schemas/review.ts';
import { $locale } from '#lib/stores/locale.ts';
import type { Locale } from '#lib/i18n/locales.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { failureKey, noticeText, primaryButton, reportFailure, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { RiskFlags } from '../review/review-words.tsx';
import { reviewAdvertHref } from '../review/ReviewScreen.tsx';
import { Facts, ItemScreen, itemLoader } from '../item-screen.tsx';
import { ReasonField, RuleSelect } from '../decision-fields.tsx';

/** The fields support may give a value of its own (plain text inputs); the others are approved or refused. */
const MODIFIABLE: readonly ReviewField[] = ['name', 'introduction', 'phone', 'website', 'age', 'height', 'weight'];

type Choice = { action: ReviewAction | ''; value: string; reason: string };
type Choices = Partial<Record<ReviewField, Choice>>;

export default function ReviewAdvertScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <AdvertLoader key={id} id={id} />;
}

function AdvertLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const [done, setDone] = useState<string | null>(null);
  const { state, setData, reload } = useScreenData<ReviewAdvertAnswer | 'notFound'>(itemLoader(id, (itemId, signal) => supportApi.reviewAdvert(itemId, signal)));
  const title = state.status === 'ready' && state.data !== 'notFound' ? t('reviewAdvert.title', { name: state.data.name }) : t('screens.reviewAdvert');
  const updated = (answer: ReviewAdvertAnswer, message: string) => {
    setData(answer);
    setDone(message);
  };
  return (
    <ItemScreen
      width="max-w-5xl"
      catalog="reviewAdvert"
      list='review'
      title={title}
      state={state}
      onRetry={reload}
    >
      {(advert) => (
        <div className="mt-6 space-y-8">
          {done ? <FormNotice tone="success" message={done} /> : null}
          <AdvertFacts t={t} advert={advert} />
          <RiskSection t={t} advert={advert} />
          <FieldsForm key={`${advert.advertId}-${advert.status}-${advert.pendingSince ?? ''}`} t={t} advert={advert} onSaved={updated} />
          {advert.isNew ? <NewAdvertDecision t={t} advert={advert} onDecided={updated} /> : null}
          <MediaSection t={t} advert={advert} onChanged={reload} />
        </div>
      )}
    </ItemScreen>
  );
}

function AdvertFacts({ t, advert }: { t: TFunction; advert: ReviewAdvertAnswer }) {
  return (
    <section aria-labelledby="review-advert-facts" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="review-advert-facts" className="text-lg font-semibold text-ink">
        {t('reviewAdvert.factsTitle')}
      </h2>
      <Facts
        rows={[
          [
            t('reviewAdvert.status'),
            <span key="status" data-advert-status>
              {t(`moderation.advertStatus.${advert.status}`, { defaultValue: String(advert.status) })}
            </span>,
          ],
          [t('reviewAdvert.advertKind'), t(`review.advertKinds.${advert.kind}`, { defaultValue: advert.kind })],
          [t('reviewAdvert.email'), advert.account.email],
          [
            t('reviewAdvert.verified'),
            <span key="verified" data-verified>
              {advert.ageVerifiedAt ? t('reviewAdvert.verifiedAt', { date: formatDateTime(advert.ageVerifiedAt) }) : t('form.no')}
            </span>,
          ],
          [t('reviewAdvert.created'), formatDateTime(advert.createdAt)],
          [t('reviewAdvert.pendingSince'), advert.pendingSince ? formatDateTime(advert.pendingSince) : t('review.none')],
        ]}
      />
    </section>
  );
}

function AdvertLinks({ t, ids }: { t: TFunction; ids: number[] }) {
  if (ids.length === 0) return <>{t('review.none')}</>;
  return (
    <ul className="flex flex-wrap gap-3">
      {ids.map((id) => (
        <li key={id}>
          <AppLink router={supportRouter} href={reviewAdvertHref(id)} className="text-brand-700 underline">
            {t('reviewAdvert.advertNumber', { id })}
          </AppLink>
        </li>
      ))}
    </ul>
  );
}

function RiskSection({ t, advert }: { t: TFunction; advert: ReviewAdvertAnswer }) {
  const minor = advert.risk.includes('minorWords');
  const { words, samePhoneAdvertIds, samePictureAdvertIds } = advert.riskDetails;
  return (
    <section aria-labelledby="review-advert-risk" className={`rounded-xl border bg-white p-5 ${minor ? 'border-red-400' : 'border-slate-200'}`}>
      <h2 id="review-advert-risk" className="text-lg font-semibold text-ink">
        {t('reviewAdvert.riskTitle')}
      </h2>
      <div className="mt-3">
        <RiskFlags t={t} risk={advert.risk} />
      </div>
      {advert.risk.length > 0 ? (
        <Facts
          rows={[
            [t('reviewAdvert.riskWords'), words.length ? <span key="words" className={minor ? 'font-semibold text-red-800' : undefined}>{words.join(', ')}</span> : t('review.none')],
            [t('reviewAdvert.samePhone'), <AdvertLinks key="phone" t={t} ids={samePhoneAdvertIds} />],
            [t('reviewAdvert.samePicture'), <AdvertLinks key="picture" t={t} ids={samePictureAdvertIds} />],
          ]}
        />
      ) : null}
    </section>
  );
}

/** A field's value in words: yes/no, names (`names` of the answer, in the screen's language), title and description. */
function valueText(t: TFunction, field: ReviewField, value: unknown, names: ReviewNames, locale: Locale): string {
  const none = t('review.none');
  if (value === null || value === undefined || value === '') return none;
  // An id the answer has no name for (removed from the reference data) shows as its number.
  const nameOf = (list: Record<string, BothNames>, id: unknown) => list[String(id)]?.[locale] ?? t('reviewAdvert.idValue', { id: String(id) });
  switch (field) {
    case 'location': {
      const place = value as ReviewValues['location'];
      if (place.cityId === null && place.regionId === null) return none;
      return t('reviewAdvert.locationValue', {
        region: place.regionId === null ? none : nameOf(names.regions, place.regionId),
        city: place.cityId === null ? none : (names.cities[String(place.cityId)] ?? t('reviewAdvert.idValue', { id: String(place.cityId) })),
      });
    }
    case 'text': {
      const text = value as ReviewValues['text'];
      return `${text.title || none}\n\n${text.description || none}`;
    }
    case 'services':
    case 'languages': {
      const ids = value as number[];
      return ids.length ? ids.map((id) => nameOf(names[field], id)).join(', ') : none;
    }
    case 'whatsapp':
      return value ? t('form.yes') : t('form.no');
    case 'type':
      return t(`reviewAdvert.typeValue.${String(value)}`, { defaultValue: String(value) });
    case 'gender':
      return t(`reviewAdvert.genderValue.${String(value)}`, { defaultValue: String(value) });
    case 'breastType':
      return t(`reviewAdvert.breastTypeValue.${String(value)}`, { defaultValue: String(value) });
    case 'nationality':
      return nameOf(names.nationalities, value);
    default:
      return String(value);
  }
}

/** The decision a choice sends; null without a choice. */
function decisionOf(field: ReviewField, choice: Choice | undefined): ReviewFieldDecision | null {
  if (!choice?.action) return null;
  if (choice.action === 'modify') return { Field: field, Action: 'modify', Value: choice.value };
  if (choice.action === 'refuse') return { Field: field, Action: 'refuse', Reason: choice.reason };
  return { Field: field, Action: 'approve' };
}

/** Server errors by review field: `name`, `location.CityId`, or `Fields.{i}.Reason` of the i-th decision sent. */
function errorsByField(error: unknown, sent: ReviewFieldDecision[]): { byField: Partial<Record<ReviewField, string>>; other: string | null } {
  const byField: Partial<Record<ReviewField, string>> = {};
  let other: string | null = null;
  for (const { field, message } of fieldErrorsOf(error)) {
    const parts = field.split('.');
    const index = parts[0] === 'Fields' && parts[1] !== undefined ? Number(parts[1]) : NaN;
    const name = (Number.isInteger(index) ? sent[index]?.Field : parts[0]) as ReviewField | undefined;
    if (name && sent.some((d) => d.Field === name)) byField[name] ??= message;
    else other ??= message;
  }
  return { byField, other };
}

function FieldsForm({ t, advert, onSaved }: { t: TFunction; advert: ReviewAdvertAnswer; onSaved: (answer: ReviewAdvertAnswer, message: string) => void }) {
  const [choices, setChoices] = useState<Choices>({});
  const [errors, setErrors] = useState<Partial<Record<ReviewField, string>>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = Object.values(choices).some((c) => c?.action);
  useUnsavedChanges(dirty, t('form.unsaved'));
  const pending = advert.fields.filter((row) => row.pending);
  const choose = (field: ReviewField, change: Partial<Choice>) =>
    setChoices((all) => ({ ...all, [field]: { action: '', value: '', reason: '', ...all[field], ...change } }));

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const sent = pending.map((row) => decisionOf(row.field, choices[row.field])).filter((d): d is ReviewFieldDecision => d !== null);
    if (sent.length === 0) {
      setErrors({});
      setNotice(t('reviewAdvert.nothingChosen'));
      return;
    }
    setSaving(true);
    setNotice(null);
    setErrors({});
    try {
      const answer = await supportApi.saveReview({ Id: advert.advertId, Fields: sent });
      setChoices({});
      onSaved(answer, t('reviewAdvert.saved'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        goToLogin();
        return;
      }
      const { byField, other } = errorsByField(error, sent);
      setErrors(byField);
      const key = other ?? (Object.keys(byField).length ? 'requiredFields' : failureKey(error));
      setNotice(noticeText(t, key));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby="review-advert-fields" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="review-advert-fields" className="text-lg font-semibold text-ink">
        {t('reviewAdvert.fieldsTitle')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{advert.isNew ? t('reviewAdvert.fieldsIntroNew') : t('reviewAdvert.fieldsIntro')}</p>
      <form noValidate onSubmit={save} className="mt-4 space-y-4">
        <FormNotice message={notice} />
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('reviewAdvert.fieldsTitle')}</caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                {(['field', 'current', 'proposed', 'decision'] as const).map((column) => (
                  <th key={column} scope="col" className="px-3 py-2 font-semibold">
                    {t(`reviewAdvert.columns.${column}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {advert.fields.map((row) => (
                <FieldRow key={row.field} t={t} advert={advert} row={row} choice={choices[row.field]} error={errors[row.field]} onChoose={choose} />
              ))}
            </tbody>
          </table>
        </div>
        {pending.length > 0 ? (
          <button type="submit" className={primaryButton} disabled={saving}>
            {saving ? t('form.saving') : t('reviewAdvert.saveDecisions')}
          </button>
        ) : (
          <p className="text-slate-700">{t('reviewAdvert.nothingPending')}</p>
        )}
      </form>
    </section>
  );
}

type RowProps = {
  t: TFunction;
  advert: ReviewAdvertAnswer;
  row: ReviewFieldRow;
  choice: Choice | undefined;
  error: string | undefined;
  onChoose: (field: ReviewField, change: Partial<Choice>) => void;
};

function FieldRow({ t, advert, row, choice, error, onChoose }: RowProps) {
  const locale = useStore($locale);
  const label = t(`reviewAdvert.fields.${row.field}`);
  const actions: ReviewAction[] = [
    'approve',
    ...(MODIFIABLE.includes(row.field) ? (['modify'] as const) : []),
    // A new advert's values are its own: there is no proposal to refuse (decline the advert instead).
    ...(advert.isNew ? [] : (['refuse'] as const)),
  ];
  const errorText = error ? t([`validation.${error}`, 'validation.invalid']) : undefined;
  const errorId = `review-field-${row.field}-error`;
  const initial = row.proposed === null || row.proposed === undefined ? '' : String(row.proposed);
  return (
    <tr data-field={row.field} data-pending={row.pending ? 'true' : 'false'} className={error ? 'bg-red-50' : row.pending ? 'bg-amber-50/40' : undefined}>
      <th scope="row" className="px-3 py-2 align-top font-medium text-ink">
        {label}
      </th>
      <td className="whitespace-pre-line break-words px-3 py-2 align-top text-slate-800">{advert.isNew ? t('reviewAdvert.notPublished') : valueText(t, row.field, row.current, advert.names, locale)}</td>
      <td className="whitespace-pre-line break-words px-3 py-2 align-top text-slate-800">{row.pending ? valueText(t, row.field, row.proposed, advert.names, locale) : t('reviewAdvert.noChange')}</td>
      <td className="px-3 py-2 align-top">
        {row.pending ? (
          <fieldset aria-describedby={errorText ? errorId : undefined}>
            <legend className="sr-only">{t('reviewAdvert.decisionFor', { field: label })}</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {actions.map((action) => (
                <label key={action} className="inline-flex items-center gap-2 text-sm text-ink">
                  <input
                    type="radio"
                    name={`review-${row.field}`}
                    value={action}
                    checked={choice?.action === action}
                    onChange={() => onChoose(row.field, { action, ...(action === 'modify' && !choice?.value ? { value: initial } : {}) })}
                    className="h-5 w-5 border-slate-400"
                  />
                  {t(`reviewAdvert.actions.${action}`)}
                </label>
              ))}
            </div>
            {choice?.action === 'modify' ? (
              <Field id={`review-${row.field}-value`} label={t('reviewAdvert.newValue', { field: label })} error={errorText}>
                {(c) => (
                  <input {...c} type="text" value={choice.value} onChange={(e) => onChoose(row.field, { value: e.target.value })} className={controlClass(Boolean(errorText), 'h-10')} />
                )}
              </Field>
            ) : null}
            {choice?.action === 'refuse' ? (
              <Field id={`review-${row.field}-reason`} label={t('reviewAdvert.refuseReason', { field: label })} required error={errorText}>
                {(c) => (
                  <textarea {...c} rows={2} maxLength={2000} value={choice.reason} onChange={(e) => onChoose(row.field, { reason: e.target.value })} className={controlClass(Boolean(errorText), 'py-2')} />
                )}
              </Field>
            ) : null}
            {errorText && choice?.action !== 'modify' && choice?.action !== 'refuse' ? (
              <p id={errorId} className="mt-1 text-sm text-red-700">
                {errorText}
              </p>
            ) : null}
          </fieldset>
        ) : null}
      </td>
    </tr>
  );
}

function NewAdvertDecision({ t, advert, onDecided }: { t: TFunction; advert: ReviewAdvertAnswer; onDecided: (answer: ReviewAdvertAnswer, message: string) => void }) {
  const [notVerified, setNotVerified] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');
  const [rule, setRule] = useState<TermsRule | ''>('');
  const [declineErrors, setDeclineErrors] = useState<{ reason?: string; rule?: string }>({});
  const [confirming, setConfirming] = useState(false);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) {
      goToLogin();
      return;
    }
    const key = failureKey(error);
    if (key === 'notVerified') {
      setNotVerified(true);
      return;
    }
    setNotice(noticeText(t, key));
  };

  const approve = async () => {
    setBusy(true);
    setNotice(null);
    setNotVerified(false);
    try {
      onDecided(await supportApi.saveReview({ Id: advert.advertId, Approve: true }), t('reviewAdvert.approved'));
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  };

  const askDecline = () => {
    const errors = { ...(reason.trim() ? {} : { reason: 'required' }), ...(rule ? {} : { rule: 'required' }) };
    setDeclineErrors(errors);
    if (!errors.reason && !errors.rule) setConfirming(true);
  };

  const decline = async () => {
    setConfirming(false);
    if (!rule) return;
    setBusy(true);
    setNotice(null);
    try {
      onDecided(await supportApi.saveReview({ Id: advert.advertId, Decline: { Reason: reason, Rule: rule } }), t('reviewAdvert.declined'));
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  };

  const reasonError = declineErrors.reason ? t(`validation.${declineErrors.reason}`) : undefined;
  const ruleError = declineErrors.rule ? t(`validation.${declineErrors.rule}`) : undefined;
  return (
    <section aria-labelledby="review-advert-decision" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="review-advert-decision" className="text-lg font-semibold text-ink">
        {t('reviewAdvert.decisionTitle')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('reviewAdvert.decisionIntro')}</p>
      <div className="mt-4 space-y-4">
        <FormNotice message={notice} />
        {notVerified ? (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900" data-not-verified>
            <p>{t('reviewAdvert.notVerified')}</p>
            <p className="mt-2">
              <AppLink router={supportRouter} href={supportPath('validation')} className="font-medium text-brand-700 underline">
                {t('reviewAdvert.toValidation')}
              </AppLink>
            </p>
          </div>
        ) : null}
        <button type="button" className={primaryButton} disabled={busy} onClick={() => void approve()}>
          {t('reviewAdvert.approve')}
        </button>
        <div className="space-y-4 border-t border-slate-200 pt-4">
          <h3 className="font-semibold text-ink">{t('reviewAdvert.declineTitle')}</h3>
          <RuleSelect
            t={t}
            id="review-decline-rule"
            label={t('reviewAdvert.rule')}
            chooseLabel={t('reviewAdvert.chooseRule')}
            required
            field={{ value: rule, onChange: (e: ChangeEvent<HTMLSelectElement>) => setRule(e.target.value as TermsRule | '') }}
            error={ruleError}
          />
          <ReasonField
            id="review-decline-reason"
            label={t('reviewAdvert.declineReason')}
            hint={t('reviewAdvert.declineHint')}
            rows={4}
            field={{ value: reason, onChange: (e: ChangeEvent<HTMLTextAreaElement>) => setReason(e.target.value) }}
            error={reasonError}
          />
          <button type="button" className={secondaryButton} disabled={busy} onClick={askDecline}>
            {t('reviewAdvert.decline')}
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('reviewAdvert.confirmTitle')}
        body={t('reviewAdvert.confirmBody', { name: advert.name })}
        confirmLabel={t('reviewAdvert.decline')}
        cancelLabel={t('form.cancel')}
        onConfirm={() => void decline()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

/** The smallest variant at least 240 pixels wide (else the largest). */
function thumbnailOf(variants: { url: string; width: number }[]): string | undefined {
  const sorted = [...variants].sort((a, b) => a.width - b.width);
  return (sorted.find((v) => v.width >= 240) ?? sorted[sorted.length - 1])?.url;
}

function MediaSection({ t, advert, onChanged }: { t: TFunction; advert: ReviewAdvertAnswer; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = async (key: string, call: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await call();
      onChanged();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length) setErrors((all) => ({ ...all, [key]: fields[0]!.message }));
      else reportFailure(t, error);
    } finally {
      setBusy(false);
    }
  };
  const declineWith = (key: string, call: (reason: string) => Promise<unknown>) => {
    const reason = (reasons[key] ?? '').trim();
    if (!reason) {
      setErrors((all) => ({ ...all, [key]: 'required' }));
      return;
    }
    void run(key, () => call(reason));
  };
  const items = [
    ...advert.pictures.map((p) => ({ key: `picture-${p.id}`, kind: 'picture' as const, id: p.id, src: thumbnailOf(p.variants), href: undefined as string | undefined, uploadedOn: p.uploadedOn })),
    ...advert.videos.map((v) => ({ key: `video-${v.id}`, kind: 'video' as const, id: v.id, src: v.posterUrl ?? undefined, href: v.videoUrl ?? undefined, uploadedOn: v.uploadedOn })),
  ];
  return (
    <section aria-labelledby="review-advert-media" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="review-advert-media" className="text-lg font-semibold text-ink">
        {t('reviewAdvert.mediaTitle')}
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('reviewAdvert.noMedia')}</p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => {
            const label = t(`reviewAdvert.${item.kind}Number`, { id: item.id });
            const errorText = errors[item.key] ? t([`validation.${errors[item.key]!}`, 'validation.invalid']) : undefined;
            return (
              <li key={item.key} data-media={item.key} className="rounded-lg border border-slate-200 p-3">
                {item.src ? <img src={item.src} alt={label} className="aspect-square w-full rounded object-cover" loading="lazy" /> : <p className="text-sm text-slate-700">{label}</p>}
                <p className="mt-2 text-xs text-slate-600">{t('reviewAdvert.uploadedOn', { date: item.uploadedOn })}</p>
                {item.href ? (
                  <a href={item.href} target="_blank" rel="noopener" className="text-sm text-brand-700 underline">
                    {t('reviewAdvert.openVideo', { id: item.id })}
                  </a>
                ) : null}
                <div className="mt-2 flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={smallButton}
                    disabled={busy}
                    onClick={() => void run(item.key, () => (item.kind === 'picture' ? supportApi.approvePicture(item.id) : supportApi.approveVideo(item.id)))}
                  >
                    {t('reviewAdvert.approveItem', { item: label })}
                  </button>
                </div>
                <Field id={`review-${item.key}-reason`} label={t('reviewAdvert.mediaReason', { item: label })} error={errorText}>
                  {(c) => (
                    <input
                      {...c}
                      type="text"
                      maxLength={1000}
                      value={reasons[item.key] ?? ''}
                      onChange={(e) => setReasons((all) => ({ ...all, [item.key]: e.target.value }))}
                      className={controlClass(Boolean(errorText), 'h-10')}
                    />
                  )}
                </Field>
                <button
                  type="button"
                  className={`${smallButton} mt-2`}
                  disabled={busy}
                  onClick={() =>
                    declineWith(item.key, (reason) =>
                      item.kind === 'picture' ? supportApi.declinePicture({ Id: item.id, Reason: reason }) : supportApi.declineVideo({ Id: item.id, Reason: reason }),
                    )
                  }
                >
                  {t('reviewAdvert.declineItem', { item: label })}
                </button>
                <button
                  type="button"
                  className={`${smallButton} mt-2 ml-2`}
                  disabled={busy}
                  onClick={() =>
                    declineWith(item.key, (reason) =>
                      item.kind === 'picture' ? supportApi.removePicture({ Id: item.id, Reason: reason }) : supportApi.removeVideo({ Id: item.id, Reason: reason }),
                    )
                  }
                >
                  {t('reviewAdvert.removeItem', { item: label })}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * /support/validation/{id}/ (Support): one verification (GET validation). The files side by side (the ID
 * document and the selfie as pictures, or the video), each opened through validationfile, which records
 * every opening (the screen says so); the advert's data to compare them with (name, age, date of birth,
 * city, phone); the risk signals in words. Then the decision: accept, decline (reason and rule; the
 * advertiser may try again) or reject (reason and rule; final, locks the advert: asks first). A decided
 * verification shows the outcome instead of the form; one decided meanwhile by someone else (409
 * `alreadyDecided`) says so and shows their decision.
 */
import { useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import * as v from 'valibot';
import { supportApi } from '#lib/api/support.ts';
import { formatDateTime, formatIsoDay } from '#lib/format.ts';
import { TERMS_RULES } from '#lib/schemas/moderation.ts';
import type { ValidationDetail } from '#lib/schemas/verification.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { RiskFlags, TestProviderMark, isUrgent, methodText, statusText } from '../validation/validation-words.tsx';
import { Facts, ItemScreen, itemLoader } from '../item-screen.tsx';
import { DecisionRadios, ReasonField, RuleSelect } from '../decision-fields.tsx';
import { sendDecision } from '../decision-submit.ts';

const DECISIONS = ['accept', 'decline', 'reject'] as const;
type Decision = (typeof DECISIONS)[number];

/**
 * The form: the decision, and for decline and reject the reason and the rule that declinevalidation and
 * rejectvalidation take (DecideValidationSchema; the server checks them again).
 */
const DecisionFormSchema = v.pipe(
  v.object({
    Decision: v.picklist(DECISIONS, 'required'),
    Reason: v.pipe(v.string('required'), v.trim(), v.maxLength(2000, 'tooLong')),
    Rule: v.union([v.literal(''), v.picklist(TERMS_RULES, 'invalid')], 'invalid'),
  }),
  v.forward(v.partialCheck([['Decision'], ['Reason']], (input) => input.Decision === 'accept' || input.Reason !== '', 'required'), ['Reason']),
  v.forward(v.partialCheck([['Decision'], ['Rule']], (input) => input.Decision === 'accept' || input.Rule !== '', 'required'), ['Rule']),
);
type DecisionForm = v.InferOutput<typeof DecisionFormSchema>;

/** yyyy-MM-dd → dd-MM-yyyy. */

export default function ValidationItemScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <Loader key={id} id={id} />;
}

function Loader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const [alreadyDecided, setAlreadyDecided] = useState(false);
  const { state, setData, reload } = useScreenData<ValidationDetail | 'notFound'>(itemLoader(id, (itemId, signal) => supportApi.validation(itemId, signal)));
  const title = state.status === 'ready' && state.data !== 'notFound' ? t('validationItem.title', { id: state.data.id }) : t('screens.validationItem');
  return (
    <ItemScreen
      width="max-w-5xl"
      catalog="validationItem"
      list='validation'
      title={title}
      state={state}
      onRetry={reload}
    >
      {(item) => (
        <div className="mt-6 space-y-8">
          {item.provider ? <ProviderResult t={t} item={item} /> : <Files t={t} item={item} />}
          <Compare t={t} item={item} />
          {alreadyDecided ? <FormNotice message={t('validation.alreadyDecided')} /> : null}
          {item.status === 1 ? (
            <DecisionFormSection
              t={t}
              item={item}
              onDecided={setData}
              onAlreadyDecided={() => {
                setAlreadyDecided(true);
                reload();
              }}
            />
          ) : (
            <Outcome t={t} item={item} />
          )}
        </div>
      )}
    </ItemScreen>
  );
}

function Files({ t, item }: { t: TFunction; item: ValidationDetail }) {
  return (
    <section aria-labelledby="validation-files-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="validation-files-title" className="text-lg font-semibold text-ink">
        {t('validationItem.filesTitle')}
      </h2>
      <p className="mt-1 text-sm font-medium text-slate-700" data-audited>
        {t('validationItem.audited')}
      </p>
      {item.files.length === 0 ? (
        <p className="mt-3 text-slate-700">
          {item.filesDeletedAt
            ? t('validationItem.filesDeleted', { date: formatDateTime(item.filesDeletedAt) })
            : item.method === 'provider'
              ? t('validationItem.noFilesProvider')
              : t('validationItem.noFiles')}
        </p>
      ) : (
        <ul className="mt-4 grid gap-4 md:grid-cols-2">
          {item.files.map((file) => {
            const label = t(`validationItem.kind.${file.kind}`);
            return (
              <li key={file.kind} className="rounded-lg border border-slate-200 p-3" data-file={file.kind}>
                <p className="font-semibold text-ink">{label}</p>
                <p className="text-sm text-slate-700">{t('validationItem.uploadedAt', { date: formatDateTime(file.uploadedAt) })}</p>
                {file.kind === 'video' ? (
                  <video controls preload="none" src={file.url} aria-label={label} className="mt-2 max-h-[28rem] w-full rounded-md bg-slate-900" />
                ) : (
                  <>
                    <img src={file.url} alt={t('validationItem.fileAlt', { file: label, id: item.id })} className="mt-2 max-h-[28rem] w-full rounded-md bg-slate-100 object-contain" />
                    <a href={file.url} target="_blank" rel="noopener" className="mt-2 inline-block text-sm font-medium text-brand-700 underline">
                      {t('validationItem.openFull', { file: label })}
                      <span className="sr-only"> ({t('validationItem.newTab')})</span>
                    </a>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * An online age check: what the provider answered (a signal support weighs, not the decision), with the
 * loud TEST mark for the built-in test provider, and why it cannot be accepted where it may not verify.
 */
function ProviderResult({ t, item }: { t: TFunction; item: ValidationDetail }) {
  const provider = item.provider!;
  const none = t('validationItem.none');
  return (
    <section
      aria-labelledby="validation-provider-title"
      data-provider={provider.name}
      className={`rounded-xl border bg-white p-5 ${provider.test ? 'border-2 border-amber-700' : 'border-slate-200'}`}
    >
      <h2 id="validation-provider-title" className="text-lg font-semibold text-ink">
        {t('validationItem.providerTitle')}
        <TestProviderMark t={t} item={item} />
      </h2>
      {provider.test ? (
        <p className="mt-2 font-semibold text-amber-900" role="note">
          {t('validationItem.providerTestNote')}
        </p>
      ) : (
        <p className="mt-1 text-sm text-slate-700">{t('validationItem.providerHelp')}</p>
      )}
      <Facts
        rows={[
          [t('validationItem.providerName'), provider.name],
          [
            t('validationItem.providerResult'),
            provider.status === null ? none : t(provider.status === 'passed' ? 'validationItem.providerPassed' : 'validationItem.providerFailed'),
          ],
          [t('validationItem.providerStatus'), provider.providerStatus ?? none],
          [t('validationItem.providerMethod'), provider.method ?? none],
          [t('validationItem.providerThreshold'), provider.threshold === null ? none : String(provider.threshold)],
          [t('validationItem.providerReceived'), provider.receivedAt ? formatDateTime(provider.receivedAt) : none],
        ]}
      />
    </section>
  );
}

function Compare({ t, item }: { t: TFunction; item: ValidationDetail }) {
  const none = t('validationItem.none');
  const { advert } = item;
  return (
    <section aria-labelledby="validation-compare-title" className={`rounded-xl border bg-white p-5 ${isUrgent(item.risk) ? 'border-red-400' : 'border-slate-200'}`}>
      <h2 id="validation-compare-title" className="text-lg font-semibold text-ink">
        {t('validationItem.compareTitle')}
      </h2>
      <div className="mt-3">
        {item.risk.length > 0 ? <RiskFlags t={t} risk={item.risk} /> : <p className="text-sm text-slate-700">{t('validationItem.noRisk')}</p>}
      </div>
      {advert ? (
        <Facts
          rows={[
            [t('validationItem.advertName'), advert.name],
            [t('validationItem.age'), advert.age === null ? none : String(advert.age)],
            [t('validationItem.dateOfBirth'), advert.dateOfBirth ? <span key="dob" data-date-of-birth>{formatIsoDay(advert.dateOfBirth)}</span> : none],
            [t('validationItem.city'), advert.city ?? none],
            [t('validationItem.phone'), advert.phone ?? none],
            [t('validationItem.email'), item.accountEmail],
            [t('validationItem.method'), methodText(t, item.method)],
            [t('validationItem.submitted'), formatDateTime(item.submittedAt ?? item.createdAt)],
          ]}
        />
      ) : (
        <p className="mt-2 text-slate-700">{t('validationItem.advertGone')}</p>
      )}
    </section>
  );
}

function Outcome({ t, item }: { t: TFunction; item: ValidationDetail }) {
  return (
    <section aria-labelledby="validation-outcome-title" className="rounded-xl border border-emerald-300 bg-emerald-50 p-5" data-outcome={item.status}>
      <h2 id="validation-outcome-title" className="text-lg font-semibold text-ink">
        {t('validationItem.outcomeTitle')}
      </h2>
      <Facts
        rows={[
          [t('validationItem.outcome'), statusText(t, item.status)],
          ...(item.rule ? ([[t('validationItem.rule'), t(`moderation.rules.${item.rule}`, { defaultValue: item.rule })]] as [string, string][]) : []),
          ...(item.reason ? ([[t('validationItem.reason'), item.reason]] as [string, string][]) : []),
          [t('validationItem.decidedBy'), item.decidedBy?.name ?? t('validationItem.system')],
          [t('validationItem.decidedAt'), item.decidedAt ? formatDateTime(item.decidedAt) : t('validationItem.none')],
        ]}
      />
    </section>
  );
}

type FormProps = {
  t: TFunction;
  item: ValidationDetail;
  onDecided: (item: ValidationDetail) => void;
  onAlreadyDecided: () => void;
};

function DecisionFormSection({ t, item, onDecided, onAlreadyDecided }: FormProps) {
  const [confirming, setConfirming] = useState(false);
  // Set once support confirmed the rejection; the next submit sends it.
  const confirmed = useRef(false);
  const form = useApiForm({
    schema: DecisionFormSchema,
    defaultValues: { Reason: '', Rule: '' },
    onUnauthorized: goToLogin,
    onValid: async (values: DecisionForm) => {
      if (values.Decision === 'reject' && !confirmed.current) {
        setConfirming(true);
        return;
      }
      confirmed.current = false;
      const body = { Id: item.id, Reason: values.Reason, Rule: values.Rule as (typeof TERMS_RULES)[number] };
      const send = () =>
        values.Decision === 'accept'
          ? supportApi.acceptValidation(item.id)
          : values.Decision === 'decline'
            ? supportApi.declineValidation(body)
            : supportApi.rejectValidation(body);
      await sendDecision(form, values, send, {
        onDecided,
        onAlreadyDecided,
        onRefused: (key) => {
          if (key !== 'notSubmitted' && key !== 'testProviderResult') return false;
          form.setNotice(key);
          return true;
        },
      });
    },
  });
  const {
    register,
    watch,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const decision = watch('Decision') as Decision | undefined;
  // A TEST provider's result cannot verify anyone in production: accepting is not offered there.
  const choices = item.provider && !item.provider.mayVerify ? DECISIONS.filter((choice) => choice !== 'accept') : DECISIONS;
  const needsReason = decision === 'decline' || decision === 'reject';
  const decisionError = fieldText(t, errors.Decision?.message);

  return (
    <section aria-labelledby="validation-form-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="validation-form-title" className="text-lg font-semibold text-ink">
        {t('validationItem.formTitle')}
      </h2>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-5">
        <FormNotice message={noticeText(t, form.notice)} />
        {choices.length < DECISIONS.length ? (
          <p className="font-semibold text-amber-900" role="note" data-accept-refused>
            {t('validationItem.providerTestRefused')}
          </p>
        ) : null}
        <DecisionRadios
          id="validation-decision"
          legend={t('validationItem.decision')}
          choices={choices}
          label={(value) => t(`validationItem.decisions.${value}`)}
          help={(value) => t(`validationItem.decisionHelp.${value}`)}
          field={register('Decision')}
          error={decisionError}
        />
        {needsReason ? (
          <>
            <RuleSelect
              t={t}
              id="validation-rule"
              label={t('validationItem.rule')}
              chooseLabel={t('validationItem.chooseRule')}
              required
              field={register('Rule')}
              error={fieldText(t, errors.Rule?.message)}
            />
            <ReasonField
              id="validation-reason"
              label={t('validationItem.reason')}
              hint={t(`validationItem.reasonHint.${decision}`)}
              rows={4}
              field={register('Reason')}
              error={fieldText(t, errors.Reason?.message)}
            />
          </>
        ) : null}
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('validationItem.deciding') : t('validationItem.decide')}
        </button>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t('validationItem.confirmTitle')}
        body={t('validationItem.confirmBody', { name: item.advert?.name ?? item.advertName ?? '' })}
        confirmLabel={t('validationItem.confirmReject')}
        cancelLabel={t('form.cancel')}
        onConfirm={() => {
          setConfirming(false);
          confirmed.current = true;
          void form.submit();
        }}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

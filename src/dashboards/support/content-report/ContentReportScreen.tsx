/**
 * /support/content-reports/{id}/ (Support): one report (GET contentreport; opening a new one marks it in
 * progress) with everything support decides on: reason, details, address, reporter, good-faith statement,
 * when it came, other reports about the advert, and the advert itself. Then the decision
 * (POST decidecontentreport): no action, or lock the advert under a rule of the terms, with a reason that
 * goes to the advertiser (and, in general words, to the reporter); locking asks first. A decided report
 * shows the decision, who made it, when, and the minutes to decision instead of the form; a report someone
 * else decided meanwhile (409 `alreadyDecided`) says so and shows their decision.
 */
import { useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import { DecideContentReportSchema, REPORT_DECISIONS, type ContentReportDetail, type DecideContentReportInput } from '#lib/schemas/moderation.ts';
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
import { PriorityFlag, reasonText } from '../content-reports/report-words.tsx';
import { Facts, ItemScreen, itemLoader } from '../item-screen.tsx';
import { DecisionRadios, ReasonField, RuleSelect } from '../decision-fields.tsx';
import { sendDecision } from '../decision-submit.ts';

export default function ContentReportScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <ReportLoader key={id} id={id} />;
}

function ReportLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const [alreadyDecided, setAlreadyDecided] = useState(false);
  const { state, setData, reload } = useScreenData<ContentReportDetail | 'notFound'>(itemLoader(id, (itemId, signal) => supportApi.contentReport(itemId, signal)));
  const title = state.status === 'ready' && state.data !== 'notFound' ? t('contentReport.title', { id: state.data.id }) : t('screens.contentReport');
  return (
    <ItemScreen
      width="max-w-3xl"
      catalog="contentReport"
      list='contentReports'
      title={title}
      state={state}
      onRetry={reload}
    >
      {(report) => (
        <div className="mt-6 space-y-8">
          <ReportFacts t={t} report={report} />
          <AdvertFacts t={t} report={report} />
          {alreadyDecided ? <FormNotice message={t('validation.alreadyDecided')} /> : null}
          {report.decidedAt ? (
            <Decision t={t} report={report} />
          ) : (
            <DecisionForm
              t={t}
              report={report}
              onDecided={setData}
              onAlreadyDecided={() => {
                setAlreadyDecided(true);
                reload();
              }}
            />
          )}
        </div>
      )}
    </ItemScreen>
  );
}

function ReportFacts({ t, report }: { t: TFunction; report: ContentReportDetail }) {
  const none = t('contentReport.none');
  return (
    <section aria-labelledby="content-report-facts" className={`rounded-xl border bg-white p-5 ${report.priority === 2 ? 'border-red-400' : 'border-slate-200'}`}>
      <h2 id="content-report-facts" className="text-lg font-semibold text-ink">
        {t('contentReport.reportTitle')}
      </h2>
      <Facts
        rows={[
          [
            t('contentReport.reason'),
            <span key="reason" data-reason>
              <PriorityFlag t={t} priority={report.priority} />
              {reasonText(t, report.reason)}
            </span>,
          ],
          [t('contentReport.status'), t(`moderation.reportStatus.${report.status}`)],
          [t('contentReport.details'), report.details ?? none],
          [t('contentReport.url'), report.url ?? none],
          [t('contentReport.reporterName'), report.reporterName ?? t('contentReport.notGiven')],
          [t('contentReport.reporterEmail'), report.reporterEmail ?? t('contentReport.notGiven')],
          [t('contentReport.goodFaith'), report.goodFaith ? t('contentReport.goodFaithYes') : t('contentReport.goodFaithNo')],
          [t('contentReport.received'), formatDateTime(report.createdAt)],
          [t('contentReport.otherReports'), t('contentReport.otherReportsCount', { count: report.otherReports })],
        ]}
      />
    </section>
  );
}

function AdvertFacts({ t, report }: { t: TFunction; report: ContentReportDetail }) {
  const { advert } = report;
  return (
    <section aria-labelledby="content-report-advert" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="content-report-advert" className="text-lg font-semibold text-ink">
        {t('contentReport.advertTitle')}
      </h2>
      {advert ? (
        <Facts
          rows={[
            [t('contentReport.advertName'), advert.name],
            [t('contentReport.advertStatus'), <span key="status" data-advert-status>{t(`moderation.advertStatus.${advert.status}`, { defaultValue: String(advert.status) })}</span>],
            [
              t('contentReport.publicPage'),
              advert.url ? (
                <a key="url" href={advert.url} target="_blank" rel="noopener" className="text-brand-700 underline">
                  {advert.url}
                </a>
              ) : (
                t('contentReport.notPublic')
              ),
            ],
          ]}
        />
      ) : (
        <p className="mt-2 text-slate-700">{t('contentReport.advertGone')}</p>
      )}
    </section>
  );
}

function Decision({ t, report }: { t: TFunction; report: ContentReportDetail }) {
  return (
    <section aria-labelledby="content-report-decision" className="rounded-xl border border-emerald-300 bg-emerald-50 p-5" data-decision>
      <h2 id="content-report-decision" className="text-lg font-semibold text-ink">
        {t('contentReport.decidedTitle')}
      </h2>
      <Facts
        rows={[
          [t('contentReport.decision'), report.decision ? t(`moderation.reportDecisions.${report.decision}`) : t(`moderation.reportStatus.${report.status}`)],
          ...(report.rule ? ([[t('contentReport.rule'), t(`moderation.rules.${report.rule}`)]] as [string, string][]) : []),
          [t('contentReport.decisionReason'), report.decisionReason ?? t('contentReport.none')],
          [t('contentReport.decidedBy'), report.decidedBy?.name || t('contentReport.system')],
          [t('contentReport.decidedAt'), report.decidedAt ? formatDateTime(report.decidedAt) : t('contentReport.none')],
          [t('contentReport.minutesToDecision'), report.minutesToDecision === null ? t('contentReport.none') : t('moderation.minutes', { count: report.minutesToDecision })],
        ]}
      />
    </section>
  );
}

type FormProps = {
  t: TFunction;
  report: ContentReportDetail;
  onDecided: (report: ContentReportDetail) => void;
  onAlreadyDecided: () => void;
};

function DecisionForm({ t, report, onDecided, onAlreadyDecided }: FormProps) {
  const [confirming, setConfirming] = useState(false);
  // Set once support confirmed locking; the next submit sends the decision.
  const confirmed = useRef(false);
  const form = useApiForm({
    schema: DecideContentReportSchema,
    defaultValues: { Id: report.id, Reason: '', Rule: '' },
    onUnauthorized: goToLogin,
    onValid: async (values: DecideContentReportInput) => {
      if (values.Decision === 'lock-advert' && !confirmed.current) {
        setConfirming(true);
        return;
      }
      confirmed.current = false;
      await sendDecision(form, values, () => supportApi.decideContentReport(values), { onDecided, onAlreadyDecided });
    },
  });
  const {
    register,
    watch,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const decision = watch('Decision');
  const rule = watch('Rule');
  const decisionError = fieldText(t, errors.Decision?.message);
  // The form's resolver stops a pipe at its first failure, so the schema's "a rule when locking" check only
  // runs once the other fields pass; while they fail, the missing rule is named here all the same.
  const ruleMissing = decision === 'lock-advert' && !rule && form.notice === 'validation.requiredFields' ? 'required' : undefined;
  const ruleError = fieldText(t, errors.Rule?.message ?? ruleMissing);

  return (
    <section aria-labelledby="content-report-form-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="content-report-form-title" className="text-lg font-semibold text-ink">
        {t('contentReport.formTitle')}
      </h2>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-5">
        <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
        <DecisionRadios
          id="report-decision"
          legend={t('contentReport.decision')}
          choices={REPORT_DECISIONS}
          label={(value) => t(`moderation.reportDecisions.${value}`)}
          help={(value) => t(`contentReport.decisionHelp.${value}`)}
          field={register('Decision')}
          error={decisionError}
        />
        <RuleSelect
          t={t}
          id="report-rule"
          label={decision === 'lock-advert' ? t('contentReport.rule') : `${t('contentReport.rule')} (${t('contentReport.ruleWhenLocking')})`}
          chooseLabel={t('contentReport.chooseRule')}
          required={decision === 'lock-advert'}
          field={register('Rule')}
          error={ruleError}
        />
        <ReasonField id="report-reason" label={t('contentReport.decisionReason')} hint={t('contentReport.reasonHint')} field={register('Reason')} error={fieldText(t, errors.Reason?.message)} />
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('contentReport.deciding') : t('contentReport.decide')}
        </button>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t('contentReport.confirmTitle')}
        body={t('contentReport.confirmBody', { name: report.advert?.name ?? report.advertName ?? '' })}
        confirmLabel={t('contentReport.confirmLock')}
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

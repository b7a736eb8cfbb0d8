/**
 * "Decisions about your advert" on the dashboard: the advertiser's statements of reasons (GET
 * statementsofreasons), shown when there is at least one: what support decided, why, under which rule of
 * the terms, and when; then either an appeal (once per decision, POST appealstatement: 10–4000 characters)
 * or the appeal's state: sent and awaiting a decision, or upheld/reversed with support's reason.
 */
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { backendApi } from '#lib/api/backend.ts';
import { isApiError } from '#lib/api/errors.ts';
import { formatDate } from '#lib/format.ts';
import { APPEAL_MAX_LENGTH, APPEAL_MIN_LENGTH, AppealStatementSchema, type StatementOfReasons } from '#lib/schemas/moderation.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { failureKey, fieldText, noticeText, primaryButton, secondaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';

/** The id the notifications of decisions link to (#decisions). */
export const DECISIONS_ANCHOR = 'decisions';

export function Decisions({ t }: { t: TFunction }) {
  const [statements, setStatements] = useState<StatementOfReasons[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    backendApi.statementsOfReasons(controller.signal).then(setStatements, (failure: unknown) => {
      if (controller.signal.aborted) return;
      if (isApiError(failure, 401)) goToLogin();
      else setError(t('common:errors.generic'));
    });
    return () => controller.abort();
  }, [t, attempt]);

  if (error) return <FormNotice message={error} />;
  if (!statements || statements.length === 0) return null;
  return (
    <section id={DECISIONS_ANCHOR} aria-labelledby="dashboard-decisions-title" tabIndex={-1}>
      <h2 id="dashboard-decisions-title" className="text-lg font-semibold text-ink">
        {t('dashboard.decisions.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('dashboard.decisions.intro')}</p>
      <ul className="mt-3 space-y-4">
        {statements.map((statement) => (
          <li key={statement.id} data-statement={statement.id} className="rounded-xl border border-slate-200 bg-white p-5">
            <Statement t={t} statement={statement} onChanged={() => setAttempt((n) => n + 1)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Statement({ t, statement, onChanged }: { t: TFunction; statement: StatementOfReasons; onChanged: () => void }) {
  const [appealing, setAppealing] = useState(false);
  const [alreadyAppealed, setAlreadyAppealed] = useState(false);
  const titleId = `statement-${statement.id}-title`;
  return (
    <article aria-labelledby={titleId}>
      <h3 id={titleId} className="font-semibold text-ink">
        {t(`moderation.statementDecisions.${statement.decision}`)}
      </h3>
      <p className="text-sm text-slate-600">{formatDate(statement.createdAt)}</p>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]">
        {statement.what ? (
          <div className="contents">
            <dt className="font-semibold text-ink">{t('dashboard.decisions.what')}</dt>
            <dd className="text-slate-800">{statement.what}</dd>
          </div>
        ) : null}
        <div className="contents">
          <dt className="font-semibold text-ink">{t('dashboard.decisions.reason')}</dt>
          <dd className="whitespace-pre-line break-words text-slate-800">{statement.reason}</dd>
        </div>
        <div className="contents">
          <dt className="font-semibold text-ink">{t('dashboard.decisions.rule')}</dt>
          <dd className="text-slate-800">{statement.rule ? t(`moderation.rules.${statement.rule}`) : t('dashboard.decisions.noRule')}</dd>
        </div>
      </dl>
      {alreadyAppealed ? (
        <div className="mt-3">
          <FormNotice message={t('validation.alreadyAppealed')} />
        </div>
      ) : null}
      {statement.appeal ? (
        <AppealState t={t} statement={statement} />
      ) : appealing ? (
        <AppealForm
          t={t}
          statement={statement}
          onCancel={() => setAppealing(false)}
          onSent={onChanged}
          onAlreadyAppealed={() => {
            setAlreadyAppealed(true);
            onChanged();
          }}
        />
      ) : (
        <button type="button" className={`${secondaryButton} mt-4`} onClick={() => setAppealing(true)}>
          {t('dashboard.decisions.appeal')}
          <span className="sr-only">: {t(`moderation.statementDecisions.${statement.decision}`)}</span>
        </button>
      )}
    </article>
  );
}

function AppealState({ t, statement }: { t: TFunction; statement: StatementOfReasons }) {
  const appeal = statement.appeal!;
  if (!appeal.decision) {
    return (
      <p className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950" data-appeal-state="sent">
        {t('dashboard.decisions.appealSent', { date: formatDate(appeal.appealedAt) })}
      </p>
    );
  }
  const reversed = appeal.decision === 'reversed';
  return (
    <div
      className={`mt-4 rounded-lg border px-4 py-3 ${reversed ? 'border-emerald-300 bg-emerald-50 text-emerald-950' : 'border-slate-300 bg-slate-50 text-ink'}`}
      data-appeal-state={appeal.decision}
    >
      <p className="font-semibold">
        {t(`dashboard.decisions.outcome.${appeal.decision}`)}
        {appeal.decidedAt ? <span className="font-normal"> ({formatDate(appeal.decidedAt)})</span> : null}
      </p>
      {appeal.reason ? <p className="mt-1 whitespace-pre-line break-words">{t('dashboard.decisions.supportReason', { reason: appeal.reason })}</p> : null}
    </div>
  );
}

type FormProps = {
  t: TFunction;
  statement: StatementOfReasons;
  onCancel: () => void;
  onSent: () => void;
  onAlreadyAppealed: () => void;
};

function AppealForm({ t, statement, onCancel, onSent, onAlreadyAppealed }: FormProps) {
  const form = useApiForm({
    schema: AppealStatementSchema,
    defaultValues: { Id: statement.id, Text: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      try {
        await backendApi.appealStatement(values);
      } catch (error) {
        // A 409 is an HttpError: the answer's field key says what it was.
        if (failureKey(error) === 'alreadyAppealed') {
          onAlreadyAppealed();
          return;
        }
        throw error;
      }
      onSent();
    },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const id = `appeal-${statement.id}-text`;
  const textError = errors.Text?.message;
  return (
    <form noValidate onSubmit={form.submit} className="mt-4 space-y-4">
      <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
      <Field
        id={id}
        label={t('dashboard.decisions.appealText')}
        required
        hint={t('dashboard.decisions.appealHint', { min: APPEAL_MIN_LENGTH, max: APPEAL_MAX_LENGTH })}
        error={textError === 'tooShort' ? t('dashboard.decisions.tooShort', { min: APPEAL_MIN_LENGTH }) : fieldText(t, textError)}
      >
        {(c) => <textarea {...c} {...register('Text')} rows={5} maxLength={APPEAL_MAX_LENGTH} className={controlClass(Boolean(errors.Text), 'py-2')} />}
      </Field>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('dashboard.decisions.sending') : t('dashboard.decisions.send')}
        </button>
        <button type="button" className={secondaryButton} onClick={onCancel}>
          {t('form.cancel')}
        </button>
      </div>
    </form>
  );
}

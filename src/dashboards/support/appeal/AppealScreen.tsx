/**
 * /support/appeals/{id}/ (Support): one appeal (the statement of reasons' id): the original decision (what,
 * why, the rule, who decided), the advertiser's appeal, and the decision on it (POST decideappeal): upheld or
 * reversed, with a reason the advertiser is told. The support user who made the original decision is
 * refused (403 `sameModerator`, said plainly, the form keeps what was typed); an appeal decided meanwhile
 * (409 `alreadyDecided`) says so.
 *
 * The API has no call for one appeal, so the screen finds it in the queue (open, then decided).
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import { APPEAL_DECISIONS, DecideAppealSchema, type AppealDecision, type AppealItem, type DecideAppealInput } from '#lib/schemas/moderation.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { Facts, ItemScreen, itemLoader } from '../item-screen.tsx';
import { DecisionRadios, ReasonField } from '../decision-fields.tsx';
import { sendDecision } from '../decision-submit.ts';

export default function AppealScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <AppealLoader key={id} id={id} />;
}

/** What this user decided here (the list answers no reason). */
type Decided = { decision: AppealDecision; reason: string };

function AppealLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const [decided, setDecided] = useState<Decided | null>(null);
  const [alreadyDecided, setAlreadyDecided] = useState(false);
  const { state, reload } = useScreenData<AppealItem | 'notFound'>(itemLoader(id, (itemId, signal) => supportApi.appeal(itemId, signal)));
  return (
    <ItemScreen
      width="max-w-3xl"
      catalog="appeal"
      list='appeals'
      title={t('screens.appeal')}
      state={state}
      onRetry={reload}
    >
      {(appeal) => (
        <div className="mt-6 space-y-8">
          <Original t={t} appeal={appeal} />
          <section aria-labelledby="appeal-text-title" className="rounded-xl border border-slate-200 bg-white p-5">
            <h2 id="appeal-text-title" className="text-lg font-semibold text-ink">
              {t('appeal.appealTitle')}
            </h2>
            <p className="mt-1 text-sm text-slate-600">{t('appeal.appealedAt', { time: formatDateTime(appeal.appealedAt) })}</p>
            <p className="mt-3 whitespace-pre-line break-words text-slate-800" data-appeal-text>
              {appeal.appealText}
            </p>
          </section>
          {alreadyDecided ? <FormNotice message={t('validation.alreadyDecided')} /> : null}
          {decided || appeal.appealDecision ? (
            <Outcome t={t} appeal={appeal} decided={decided} />
          ) : (
            <AppealForm
              t={t}
              appeal={appeal}
              onDecided={setDecided}
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

function Original({ t, appeal }: { t: TFunction; appeal: AppealItem }) {
  return (
    <section aria-labelledby="appeal-original-title" className="rounded-xl border border-slate-200 bg-white p-5" data-original>
      <h2 id="appeal-original-title" className="text-lg font-semibold text-ink">
        {t('appeal.originalTitle')}
      </h2>
      <Facts
        rows={[
          [t('appeal.what'), t(`moderation.statementDecisions.${appeal.decision}`)],
          [t('appeal.advert'), appeal.advertName ?? t('appeal.noAdvert')],
          [t('appeal.reason'), appeal.reason],
          [t('appeal.rule'), appeal.rule ? t(`moderation.rules.${appeal.rule}`) : t('appeal.noRule')],
          [t('appeal.decidedBy'), appeal.decidedBy?.name || t('appeal.system')],
        ]}
      />
    </section>
  );
}

function Outcome({ t, appeal, decided }: { t: TFunction; appeal: AppealItem; decided: Decided | null }) {
  const decision = decided?.decision ?? appeal.appealDecision;
  return (
    <section aria-labelledby="appeal-outcome-title" className="rounded-xl border border-emerald-300 bg-emerald-50 p-5" data-outcome>
      <h2 id="appeal-outcome-title" className="text-lg font-semibold text-ink">
        {t('appeal.outcomeTitle')}
      </h2>
      <Facts
        rows={[
          [t('appeal.decision'), decision ? t(`moderation.appealDecisions.${decision}`) : t('appeal.noRule')],
          ...((decided?.reason ?? appeal.appealReason) ? ([[t('appeal.decisionReason'), decided?.reason ?? appeal.appealReason ?? '']] as [string, string][]) : []),
          ...(appeal.appealDecidedBy ? ([[t('appeal.decidedBy'), appeal.appealDecidedBy.name]] as [string, string][]) : []),
          ...(appeal.appealDecidedAt ? ([[t('appeal.decidedAt'), formatDateTime(appeal.appealDecidedAt)]] as [string, string][]) : []),
        ]}
      />
    </section>
  );
}

type FormProps = {
  t: TFunction;
  appeal: AppealItem;
  onDecided: (decided: Decided) => void;
  onAlreadyDecided: () => void;
};

function AppealForm({ t, appeal, onDecided, onAlreadyDecided }: FormProps) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useApiForm({
    schema: DecideAppealSchema,
    defaultValues: { Id: appeal.id, Reason: '' },
    onUnauthorized: goToLogin,
    onValid: async (values: DecideAppealInput) => {
      setRefusal(null);
      await sendDecision(form, values, () => supportApi.decideAppeal(values), {
        onDecided: () => onDecided({ decision: values.Decision, reason: values.Reason }),
        onAlreadyDecided,
        onRefused: (key) => {
          if (key !== 'sameModerator') return false;
          // Said above the form; what was typed stays for another support user to see it is not lost.
          setRefusal(key);
          return true;
        },
      });
    },
  });
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const decisionError = fieldText(t, errors.Decision?.message);

  return (
    <section aria-labelledby="appeal-form-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="appeal-form-title" className="text-lg font-semibold text-ink">
        {t('appeal.formTitle')}
      </h2>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-5">
        <FormNotice message={refusal ? fieldText(t, refusal)! : (noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null)} />
        <DecisionRadios
          id="appeal-decision"
          legend={t('appeal.decision')}
          choices={APPEAL_DECISIONS}
          label={(value) => t(`appeal.choices.${value}`)}
          help={(value) => t(`appeal.choiceHelp.${value}`)}
          field={register('Decision')}
          error={decisionError}
        />
        <ReasonField id="appeal-reason" label={t('appeal.decisionReason')} hint={t('appeal.reasonHint')} field={register('Reason')} error={fieldText(t, errors.Reason?.message)} />
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('appeal.deciding') : t('appeal.decide')}
        </button>
      </form>
    </section>
  );
}

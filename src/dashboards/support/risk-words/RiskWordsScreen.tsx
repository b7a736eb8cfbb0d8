/**
 * /support/risk-words/ (Support): the list of words that suggest a minor (issue 6, risk signals). A word
 * on the list blocks an advertiser's texts and the sign-up's advert name, and flags adverts that already
 * use it first in the review and validation queues. Add (a word already there is refused at the field,
 * `duplicate`) and remove (after a confirmation); both are audited on the server (riskwords,
 * removeriskword).
 */
import type * as v from 'valibot';
import { formatDate } from '#lib/format.ts';
import { supportApi } from '#lib/api/support.ts';
import { RiskWordSchema, type RiskWord } from '#lib/schemas/review.ts';
import { toast } from '#lib/stores/toasts.ts';
import { AddRowForm } from '../../../components/form/AddRowForm.tsx';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { fieldText, noticeText, primaryButton, reportFailure, smallButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useConfirmation } from '../../shared/use-confirmation.tsx';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { ScreenShell } from '../screen-data.tsx';

export default function RiskWordsScreen() {
  const t = useAppT(supportI18n);
  const { state, setData: setWords, reload } = useScreenData(supportApi.riskWords);
  const words = state.status === 'ready' ? state.data : [];
  const confirmRemove = useConfirmation<RiskWord>();

  async function remove(word: RiskWord) {
    try {
      setWords(await supportApi.removeRiskWord(word.id));
      toast({ title: t('riskWords.removed', { word: word.word }), variant: 'success' });
    } catch (error) {
      reportFailure(t, error);
    }
  }

  return (
    <ScreenShell
      id="risk-words-heading"
      title={t('screens.riskWords')}
      intro={t('riskWords.intro')}
      state={state}
      loadError={t('riskWords.loadError')}
      onRetry={reload}
    >
      {() => (
        <>
          <AddForm onAdded={setWords} />
          <h2 className="mt-8 text-xl font-semibold text-ink">{t('riskWords.listTitle')}</h2>
          {words.length === 0 ? (
            <p className="mt-3 text-slate-700">{t('riskWords.empty')}</p>
          ) : (
            <div className="mt-3 overflow-x-auto rounded-xl border border-slate-200 bg-white">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t('riskWords.listTitle')}</caption>
                <thead className="bg-slate-50 text-slate-700">
                  <tr>
                    {(['word', 'addedBy', 'added'] as const).map((column) => (
                      <th key={column} scope="col" className="px-3 py-2 font-semibold">
                        {t(`riskWords.${column}`)}
                      </th>
                    ))}
                    <th scope="col" className="px-3 py-2 font-semibold">
                      <span className="sr-only">{t('riskWords.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {words.map((word) => (
                    <tr key={word.id} data-risk-word={word.word}>
                      <th scope="row" className="px-3 py-2 font-medium text-ink">
                        {word.word}
                      </th>
                      <td className="px-3 py-2 text-slate-800">{word.addedBy?.name ?? t('riskWords.system')}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-slate-700">{formatDate(word.createdAt)}</td>
                      <td className="px-3 py-2 text-right">
                        <button type="button" className={smallButton} aria-label={t('riskWords.remove', { word: word.word })} onClick={() => confirmRemove.ask(word)}>
                          {t('riskWords.removeShort')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {confirmRemove.dialog({
            title: t('riskWords.confirmTitle'),
            body: (word) => t('riskWords.confirmBody', { word: word.word }),
            confirmLabel: t('riskWords.confirmRemove'),
            cancelLabel: t('form.cancel'),
            onConfirm: (word) => void remove(word),
          })}
        </>
      )}
    </ScreenShell>
  );
}

type AddValues = { Word: string };
type AddOutput = v.InferOutput<typeof RiskWordSchema>;
const EMPTY: AddValues = { Word: '' };

function AddForm({ onAdded }: { onAdded: (words: RiskWord[]) => void }) {
  const t = useAppT(supportI18n);
  const form = useApiForm<AddValues, AddOutput>({
    schema: RiskWordSchema as unknown as v.GenericSchema<AddValues, AddOutput>,
    defaultValues: EMPTY,
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const words = await supportApi.addRiskWord(values.Word);
      form.reset(EMPTY);
      onAdded(words);
      toast({ title: t('riskWords.addedToast', { word: values.Word }), variant: 'success' });
    },
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  return (
    <AddRowForm id="risk-words-add" form={form} title={t('riskWords.addTitle')} notice={noticeText(t, form.notice)} submitLabel={t('riskWords.add')} busyLabel={t('form.saving')} buttonClassName={primaryButton}>
      <Field id="risk-word" label={t('riskWords.word')} hint={t('riskWords.wordHint')} required error={fieldText(t, errors.Word?.message)}>
        {(control) => <input {...control} {...form.register('Word')} autoComplete="off" maxLength={40} className={controlClass(!!errors.Word, 'min-h-11 max-w-sm')} />}
      </Field>
    </AddRowForm>
  );
}

/**
 * blacklist/: the advertiser's own list of client phone numbers with a private note. Reviews written from
 * a listed number are refused. A number already on the list is refused at the phone field (`duplicate`).
 */
import type * as v from 'valibot';
import { formatDate } from '#lib/format.ts';
import { AddToBlacklistSchema } from '#lib/schemas/advert-edit.ts';
import { toast } from '#lib/stores/toasts.ts';
import { AddRowForm } from '../../../components/form/AddRowForm.tsx';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useConfirmation } from '../../shared/use-confirmation.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { fieldText, noticeText, primaryButton, reportFailure, smallButton } from '../../shared/form-text.ts';
import { blacklistApi, type BlacklistEntry } from './api.ts';

/** 8 digits shown in pairs, as Danish numbers are written: 12 34 56 78. */
const phoneText = (phone: string) => phone.replace(/(\d{2})(?=\d)/g, '$1 ');

export default function BlacklistScreen() {
  const t = useAppT(backendI18n);
  const { state, setData: setEntries, reload } = useScreenData(blacklistApi.list);
  const entries = state.status === 'ready' ? state.data : [];
  const confirmRemove = useConfirmation<BlacklistEntry>();

  async function remove(entry: BlacklistEntry) {
    try {
      await blacklistApi.remove(entry.id);
      setEntries(entries.filter((e) => e.id !== entry.id));
      toast({ title: t('blacklist.removed', { phone: phoneText(entry.phone) }), variant: 'success' });
    } catch (error) {
      reportFailure(t, error);
    }
  }

  return (
    <ScreenShell
      id="blacklist-screen-heading"
      title={t('screens.blacklist')}
      intro={t('blacklist.intro')}
      aside={<p className="mt-2 max-w-prose font-medium text-slate-800">{t('blacklist.reviewsRefused')}</p>}
      state={state}
      loadError={t('blacklist.loadError')}
      onRetry={reload}
    >
      {() => (
        <>
          <AddForm onAdded={(entry) => setEntries([entry, ...entries])} />
          <h2 className="mt-8 text-xl font-semibold text-ink">{t('blacklist.listTitle')}</h2>
          {entries.length === 0 ? (
            <p className="mt-3 text-slate-700">{t('blacklist.empty')}</p>
          ) : (
            <div className="mt-3 overflow-x-auto rounded-xl border border-slate-200 bg-white">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t('blacklist.listTitle')}</caption>
                <thead className="bg-slate-50 text-slate-700">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      {t('blacklist.phone')}
                    </th>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      {t('blacklist.note')}
                    </th>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      {t('blacklist.added')}
                    </th>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      <span className="sr-only">{t('blacklist.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {entries.map((entry) => (
                    <tr key={entry.id} data-blacklist-entry={entry.phone}>
                      <td className="whitespace-nowrap px-3 py-2 font-medium text-ink">{phoneText(entry.phone)}</td>
                      <td className="px-3 py-2 text-slate-800">{entry.note ?? ''}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-slate-700">{formatDate(entry.createdAt)}</td>
                      <td className="px-3 py-2 text-right">
                        <button
                          type="button"
                          className={smallButton}
                          aria-label={t('blacklist.remove', { phone: phoneText(entry.phone) })}
                          onClick={() => confirmRemove.ask(entry)}
                        >
                          {t('blacklist.removeShort')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {confirmRemove.dialog({
            title: t('blacklist.confirmTitle'),
            body: (entry) => t('blacklist.confirmBody', { phone: phoneText(entry.phone) }),
            confirmLabel: t('blacklist.confirmRemove'),
            cancelLabel: t('form.cancel'),
            onConfirm: (entry) => void remove(entry),
          })}
        </>
      )}
    </ScreenShell>
  );
}

type AddValues = { Phone: string; Note: string };
type AddOutput = v.InferOutput<typeof AddToBlacklistSchema>;
const EMPTY: AddValues = { Phone: '', Note: '' };

function AddForm({ onAdded }: { onAdded: (entry: BlacklistEntry) => void }) {
  const t = useAppT(backendI18n);
  const form = useApiForm<AddValues, AddOutput>({
    schema: AddToBlacklistSchema as unknown as v.GenericSchema<AddValues, AddOutput>,
    defaultValues: EMPTY,
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const entry = await blacklistApi.add(values.Phone, values.Note);
      form.reset(EMPTY);
      onAdded(entry);
      toast({ title: t('form.saved'), variant: 'success' });
    },
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  return (
    <AddRowForm id="blacklist-add" form={form} title={t('blacklist.addTitle')} notice={noticeText(t, form.notice)} submitLabel={t('blacklist.add')} busyLabel={t('form.saving')} buttonClassName={primaryButton}>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="blacklist-phone" label={t('blacklist.phone')} hint={t('blacklist.phoneHint')} required error={fieldText(t, errors.Phone?.message)}>
          {(control) => <input {...control} {...form.register('Phone')} type="tel" autoComplete="off" className={controlClass(!!errors.Phone, 'min-h-11')} />}
        </Field>
        <Field
          id="blacklist-note"
          className="sm:col-span-2"
          label={`${t('blacklist.note')} (${t('form.optional')})`}
          hint={t('blacklist.noteHint')}
          error={fieldText(t, errors.Note?.message)}
        >
          {(control) => <input {...control} {...form.register('Note')} maxLength={200} className={controlClass(!!errors.Note, 'min-h-11')} />}
        </Field>
      </div>
    </AddRowForm>
  );
}

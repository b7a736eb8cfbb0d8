/**
 * /support/migrate-adverts/{id}/ (Support; issue 18): one advert imported from the old site (GET
 * migrationadvert). Its state and dates (when it is deleted unless claimed), the old advert as imported
 * (its old address, texts, prices in DKK, place, pictures at their authenticated addresses) beside the new
 * one (support's advert screen once it is claimed or merged), the people on the site it may belong to
 * (same phone, email or a picture alike), and what support does with it: send the claim invitation
 * (POST invitemigrationadvert, after a confirmation; a refusal is said in words), merge it into an
 * existing advert (POST mergemigrationadvert; the advert id defaults to a possible duplicate's), or refuse
 * it with a reason (POST refusemigrationadvert, after a confirmation). Someone else deciding first (409
 * `alreadyDecided`) is said, and the screen shows what is now.
 */
import { useRef, useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import * as v from 'valibot';
import { supportMigrationApi } from '#lib/api/support-migration.ts';
import { formatDate, formatDkk } from '#lib/format.ts';
import { wholeNumber } from '#lib/schemas/query-values.ts';
import {
  REFUSABLE_MIGRATED_STATES,
  RefuseMigratedAdvertSchema,
  type MigratedAdvertDetail,
  type MigratedAdvertState,
  type MigratedPicture,
  type MigrationDuplicate,
} from '#lib/schemas/migration.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { fieldText, noticeText, primaryButton, secondaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { Facts, ItemScreen, itemLoader } from '../item-screen.tsx';
import { ReasonField } from '../decision-fields.tsx';
import { sendDecision } from '../decision-submit.ts';
import { Table, cell } from '../advert/advert-sections.tsx';
import { migrateAdvertHref, migrateAdvertsHref } from '../migrate-adverts/MigrateAdvertsScreen.tsx';

/** The states an invitation may go out from (again: a new link replaces the earlier one). */
export const INVITABLE_STATES: readonly MigratedAdvertState[] = ['imported', 'invited'];
/** The states an import may be merged into an existing advert from. */
export const MERGEABLE_STATES: readonly MigratedAdvertState[] = ['imported', 'invited', 'duplicate'];

const InviteFormSchema = v.object({ Id: wholeNumber('required') }, 'required');
const MergeFormSchema = v.object(
  {
    Id: wholeNumber('required'),
    AdvertId: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.regex(/^\d{1,9}$/, 'number'), v.transform(Number), v.minValue(1, 'number')),
  },
  'required',
);

/** support's advert screen of an advert. */
const advertHref = (id: number) => `${supportPath('adverts')}${id}/`;

export default function MigrateAdvertScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <MigratedLoader key={id} id={id} />;
}

function MigratedLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const [done, setDone] = useState<string | null>(null);
  const [alreadyDecided, setAlreadyDecided] = useState(false);
  const { state, setData, reload } = useScreenData<MigratedAdvertDetail | 'notFound'>(itemLoader(id, (itemId, signal) => supportMigrationApi.advert(itemId, signal)));
  const title = state.status === 'ready' && state.data !== 'notFound' ? t('migration.advert.title', { name: state.data.name, oldId: state.data.oldId }) : t('screens.migrateAdvert');
  const handlers: ActionHandlers = {
    onDone: (message, detail) => {
      setAlreadyDecided(false);
      setDone(message);
      if (detail) setData(detail);
      else reload();
    },
    onAlreadyDecided: () => {
      setDone(null);
      setAlreadyDecided(true);
      reload();
    },
  };
  return (
    <ItemScreen width="max-w-6xl" catalog="migration" list="migrateAdverts" title={title} state={state} onRetry={reload}>
      {(item) => (
        <div className="mt-6 space-y-8">
          {done ? <FormNotice tone="success" message={done} /> : null}
          {alreadyDecided ? <FormNotice message={t('validation.alreadyDecided')} /> : null}
          <StateFacts t={t} item={item} />
          <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
            <OldAdvert t={t} item={item} />
            <NewAdvert t={t} item={item} />
          </div>
          <Duplicates t={t} item={item} />
          <Actions t={t} item={item} handlers={handlers} />
        </div>
      )}
    </ItemScreen>
  );
}

function Panel({ id, title, children, className = '' }: { id: string; title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={`rounded-xl border border-slate-200 bg-white p-5 ${className}`}>
      <h2 id={id} className="text-lg font-semibold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

function StateFacts({ t, item }: { t: TFunction; item: MigratedAdvertDetail }) {
  const rows: [string, ReactNode][] = [
    [
      t('migration.advert.state'),
      <span key="state" data-migration-state={item.state}>
        {t(`migration.states.${item.state}`)}
      </span>,
    ],
    [
      t('migration.advert.importedAt'),
      <span key="imported">
        {formatDate(item.createdAt)}
        {item.importId !== null ? (
          <>
            {' · '}
            <AppLink router={supportRouter} href={migrateAdvertsHref({ import: String(item.importId) })} className="text-brand-700 underline">
              {item.line !== null ? t('migration.advert.fromImportLine', { id: item.importId, line: item.line }) : t('migration.advert.fromImport', { id: item.importId })}
            </AppLink>
          </>
        ) : null}
      </span>,
    ],
  ];
  if (item.invitedAt) rows.push([t('migration.advert.invitedAt'), formatDate(item.invitedAt)]);
  if (item.claimedAt) rows.push([t('migration.advert.claimedAt'), formatDate(item.claimedAt)]);
  if (item.deletedAt) rows.push([t('migration.advert.deletedAt'), formatDate(item.deletedAt)]);
  if (item.deleteOn) rows.push([t('migration.advert.deleteOn'), <span key="deleteOn" data-delete-on>{t('migration.advert.deleteOnText', { date: item.deleteOn })}</span>]);
  if (item.refusedReason) rows.push([t('migration.advert.refusedReason'), <span key="reason" data-refused-reason>{item.refusedReason}</span>]);
  return (
    <Panel id="migration-state-title" title={t('migration.advert.stateTitle')}>
      <Facts rows={rows} />
    </Panel>
  );
}

const none = '–';

function OldAdvert({ t, item }: { t: TFunction; item: MigratedAdvertDetail }) {
  const { data } = item;
  const place = [item.cityName ?? data?.cityName, item.regionName ?? data?.regionName].filter(Boolean).join(', ');
  const rows: [string, ReactNode][] = [
    [
      t('migration.advert.oldAddress'),
      <a key="old" href={item.oldPath} className="break-all text-brand-700 underline" data-old-path>
        {item.oldPath}
      </a>,
    ],
    [t('migration.advert.oldId'), String(item.oldId)],
    [t('migration.advert.kind'), t(`adverts.kind.${item.kind}`, { defaultValue: item.kind })],
    [t('migration.advert.name'), item.name],
    [t('migration.advert.email'), item.email ?? t('migration.advert.noEmail')],
    [t('migration.advert.phone'), item.phone ?? t('migration.advert.noPhone')],
    [t('migration.advert.place'), place || none],
  ];
  if (data) {
    rows.push([t('migration.advert.age'), data.age === null ? none : String(data.age)]);
    rows.push([t('migration.advert.titleDa'), data.title || none]);
    rows.push([t('migration.advert.introduction'), data.introduction || none]);
    rows.push([t('migration.advert.description'), data.description || none]);
    if (data.titleEn || data.introductionEn || data.descriptionEn) {
      rows.push([t('migration.advert.titleEn'), data.titleEn || none]);
      rows.push([t('migration.advert.introductionEn'), data.introductionEn || none]);
      rows.push([t('migration.advert.descriptionEn'), data.descriptionEn || none]);
    }
  }
  return (
    <Panel id="migration-old-title" title={t('migration.advert.oldTitle')} className="min-w-0">
      <div data-old-advert>
        <Facts rows={rows} />
        {data ? (
          <>
            <h3 className="mt-6 font-semibold text-ink">{t('migration.advert.prices')}</h3>
            {data.prices.length === 0 ? (
              <p className="mt-2 text-slate-700">{t('migration.advert.noPrices')}</p>
            ) : (
              <Table
                caption={t('migration.advert.pricesCaption')}
                columns={[t('migration.advert.duration'), t('migration.advert.incall'), t('migration.advert.outcall'), t('migration.advert.priceText')]}
              >
                {data.prices.map((price, index) => (
                  <tr key={index} data-price={index}>
                    <td className={`${cell} whitespace-nowrap`}>{t('migration.advert.minutes', { count: price.durationMinutes })}</td>
                    <td className={`${cell} whitespace-nowrap tabular-nums`}>{price.incallPriceOre === null ? none : formatDkk(price.incallPriceOre)}</td>
                    <td className={`${cell} whitespace-nowrap tabular-nums`}>{price.outcallPriceOre === null ? none : formatDkk(price.outcallPriceOre)}</td>
                    <td className={cell}>{price.description || none}</td>
                  </tr>
                ))}
              </Table>
            )}
            {data.extraPrices.length > 0 ? (
              <Table caption={t('migration.advert.extraPricesCaption')} columns={[t('migration.advert.priceText'), t('migration.advert.price')]}>
                {data.extraPrices.map((price, index) => (
                  <tr key={index} data-extra-price={index}>
                    <td className={cell}>{price.description}</td>
                    <td className={`${cell} whitespace-nowrap tabular-nums`}>{formatDkk(price.priceOre)}</td>
                  </tr>
                ))}
              </Table>
            ) : null}
            <h3 className="mt-6 font-semibold text-ink">{t('migration.advert.pictures', { count: item.pictures.length })}</h3>
            {item.pictures.length === 0 ? (
              <p className="mt-2 text-slate-700">{t('migration.advert.noPictures')}</p>
            ) : (
              <ul className="mt-2 grid gap-3 sm:grid-cols-2">
                {item.pictures.map((picture) => (
                  <PictureCard key={picture.index} t={t} picture={picture} name={item.name} />
                ))}
              </ul>
            )}
          </>
        ) : (
          <p className="mt-4 text-slate-700">{t('migration.advert.dataGone')}</p>
        )}
      </div>
    </Panel>
  );
}

/** The smallest copy to show (WebP before AVIF when both have that width) and the largest to open. */
export function pictureCopies(picture: Pick<MigratedPicture, 'variants'>): { small: MigratedPicture['variants'][number]; large: MigratedPicture['variants'][number] } | null {
  if (picture.variants.length === 0) return null;
  const byWidth = [...picture.variants].sort((a, b) => a.width - b.width || (a.format === 'webp' ? -1 : b.format === 'webp' ? 1 : 0));
  const large = [...byWidth].reverse().find((variant) => variant.format === 'webp') ?? byWidth.at(-1)!;
  const small = byWidth.find((variant) => variant.width >= 320 && variant.format === 'webp') ?? byWidth.find((variant) => variant.format === 'webp') ?? byWidth[0]!;
  return { small, large };
}

function PictureCard({ t, picture, name }: { t: TFunction; picture: MigratedPicture; name: string }) {
  const copies = pictureCopies(picture);
  const alt = t('migration.advert.pictureAlt', { n: picture.index + 1, name });
  return (
    <li className="rounded-lg border border-slate-200 p-2" data-migrated-picture={picture.index}>
      {copies ? (
        <a href={copies.large.url} target="_blank" rel="noopener">
          <img src={copies.small.url} alt={alt} width={copies.small.width} height={copies.small.height} loading="lazy" className="h-40 w-full rounded bg-slate-100 object-contain" />
        </a>
      ) : (
        <p className="flex h-40 items-center justify-center rounded bg-slate-100 p-2 text-center text-sm text-slate-700">{t('migration.advert.pictureGone')}</p>
      )}
      <p className="mt-1 break-all text-xs text-slate-700">
        {picture.fileName} · {picture.width}×{picture.height}
      </p>
    </li>
  );
}

function NewAdvert({ t, item }: { t: TFunction; item: MigratedAdvertDetail }) {
  const text =
    item.advertId === null
      ? t('migration.advert.noNew')
      : item.state === 'duplicate'
        ? t('migration.advert.merged', { id: item.advertId })
        : t('migration.advert.claimed', { id: item.advertId });
  return (
    <Panel id="migration-new-title" title={t('migration.advert.newTitle')} className="self-start">
      <div data-new-advert>
        <p className="mt-3 text-slate-800">{text}</p>
        {item.advertId !== null ? (
          <p className="mt-3">
            <AppLink router={supportRouter} href={advertHref(item.advertId)} className="font-medium text-brand-700 underline">
              {t('migration.advert.openAdvert', { id: item.advertId })}
            </AppLink>
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-600">{t('migration.advert.noNewHelp')}</p>
        )}
      </div>
    </Panel>
  );
}

/** Where support looks a possible duplicate up: its advert, its import, or (an account) the adverts with the same email or phone. */
export function duplicateHref(duplicate: MigrationDuplicate, item: Pick<MigratedAdvertDetail, 'email' | 'phone'>): string {
  if (duplicate.type === 'advert') return advertHref(duplicate.id);
  if (duplicate.type === 'migratedAdvert') return migrateAdvertHref(duplicate.id);
  const params = new URLSearchParams();
  if (duplicate.matches.includes('email') && item.email) params.set('email', item.email);
  else if (item.phone) params.set('phone', item.phone);
  const query = params.toString();
  return `${supportPath('adverts')}${query ? `?${query}` : ''}`;
}

function Duplicates({ t, item }: { t: TFunction; item: MigratedAdvertDetail }) {
  return (
    <Panel id="migration-duplicates-title" title={t('migration.advert.duplicatesTitle')}>
      <p className="mt-1 text-sm text-slate-600">{t('migration.advert.duplicatesHelp')}</p>
      {item.possibleDuplicates.length === 0 ? (
        <p className="mt-3 text-slate-700">{t('migration.advert.noDuplicates')}</p>
      ) : (
        <Table
          caption={t('migration.advert.duplicatesCaption')}
          columns={[t('migration.advert.duplicateType'), t('migration.advert.duplicateWho'), t('migration.advert.duplicateMatches')]}
        >
          {item.possibleDuplicates.map((duplicate) => {
            const label = t(`migration.advert.duplicateLabel.${duplicate.type}`, { id: duplicate.id, name: duplicate.name ?? none });
            return (
              <tr key={`${duplicate.type}-${duplicate.id}`} data-duplicate={`${duplicate.type}-${duplicate.id}`}>
                <td className={cell}>{t(`migration.duplicateTypes.${duplicate.type}`)}</td>
                <th scope="row" className="px-3 py-2 text-left align-top font-medium">
                  <AppLink router={supportRouter} href={duplicateHref(duplicate, item)} className="text-brand-700 underline">
                    {label}
                  </AppLink>
                </th>
                <td className={cell} data-matches>
                  {duplicate.matches.map((match) => t(`migration.duplicateMatches.${match}`)).join(', ')}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
    </Panel>
  );
}

type ActionHandlers = {
  /** Done: the words to show, and the advert as it is now when the answer holds it (else it is read again). */
  onDone: (message: string, detail?: MigratedAdvertDetail) => void;
  onAlreadyDecided: () => void;
};

function Actions({ t, item, handlers }: { t: TFunction; item: MigratedAdvertDetail; handlers: ActionHandlers }) {
  const canInvite = INVITABLE_STATES.includes(item.state);
  const canMerge = MERGEABLE_STATES.includes(item.state);
  const canRefuse = REFUSABLE_MIGRATED_STATES.includes(item.state);
  if (!canInvite && !canMerge && !canRefuse) {
    return (
      <Panel id="migration-actions-title" title={t('migration.actions.title')}>
        <p className="mt-3 text-slate-700">{t('migration.actions.none', { state: t(`migration.states.${item.state}`) })}</p>
      </Panel>
    );
  }
  return (
    <div className="space-y-6">
      {canInvite ? <InviteForm t={t} item={item} handlers={handlers} /> : null}
      {canMerge ? <MergeForm t={t} item={item} handlers={handlers} /> : null}
      {canRefuse ? <RefuseForm t={t} item={item} handlers={handlers} /> : null}
    </div>
  );
}

/** A form's submit that asks first: `ask()` opens the question, `confirmed()` once it was answered yes. */
function useAskFirst(submit: () => Promise<void>) {
  const [asking, setAsking] = useState(false);
  const answered = useRef(false);
  return {
    asking,
    /** In onValid: true when the question was answered (go on), false when it is asked now. */
    pass: () => {
      if (answered.current) {
        answered.current = false;
        return true;
      }
      setAsking(true);
      return false;
    },
    confirm: () => {
      setAsking(false);
      answered.current = true;
      void submit();
    },
    cancel: () => setAsking(false),
  };
}

function InviteForm({ t, item, handlers }: { t: TFunction; item: MigratedAdvertDetail; handlers: ActionHandlers }) {
  const form = useApiForm({
    schema: InviteFormSchema,
    defaultValues: { Id: item.id },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      if (!ask.pass()) return;
      await sendDecision(form, values, () => supportMigrationApi.invite(values.Id), {
        onDecided: (answer) => handlers.onDone(t('migration.actions.invited', { email: item.email ?? '', date: formatDate(answer.claimExpiresAt) })),
        onAlreadyDecided: handlers.onAlreadyDecided,
      });
    },
  });
  const ask = useAskFirst(form.submit);
  const {
    formState: { errors, isSubmitting },
  } = form;
  const again = item.state === 'invited';
  return (
    <Panel id="migration-invite-title" title={t('migration.actions.inviteTitle')}>
      <p className="mt-1 text-sm text-slate-600">{t('migration.actions.inviteHelp')}</p>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-4" data-invite-form>
        <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('migration.actions.inviting') : t(again ? 'migration.actions.inviteAgain' : 'migration.actions.invite')}
        </button>
      </form>
      <ConfirmDialog
        open={ask.asking}
        title={t('migration.actions.inviteConfirmTitle')}
        body={
          item.email && item.phone
            ? t('migration.actions.inviteConfirmBody', { name: item.name, email: item.email, phone: item.phone })
            : t('migration.actions.inviteConfirmBodyMissing', { name: item.name })
        }
        confirmLabel={t(again ? 'migration.actions.inviteAgain' : 'migration.actions.invite')}
        cancelLabel={t('form.cancel')}
        onConfirm={ask.confirm}
        onCancel={ask.cancel}
      />
    </Panel>
  );
}

function MergeForm({ t, item, handlers }: { t: TFunction; item: MigratedAdvertDetail; handlers: ActionHandlers }) {
  // The advert it is merged into already, else the first advert among the possible duplicates.
  const suggested = item.state === 'duplicate' && item.advertId !== null ? item.advertId : item.possibleDuplicates.find((duplicate) => duplicate.type === 'advert')?.id;
  const form = useApiForm({
    schema: MergeFormSchema,
    defaultValues: { Id: item.id, AdvertId: suggested === undefined ? '' : String(suggested) },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      if (!ask.pass()) return;
      await sendDecision(form, { Id: values.Id, AdvertId: String(values.AdvertId) }, () => supportMigrationApi.merge(values), {
        onDecided: (answer) => handlers.onDone(t('migration.actions.merged', { id: answer.advertId })),
        onAlreadyDecided: handlers.onAlreadyDecided,
      });
    },
  });
  const ask = useAskFirst(form.submit);
  const {
    register,
    getValues,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  return (
    <Panel id="migration-merge-title" title={t('migration.actions.mergeTitle')}>
      <p className="mt-1 text-sm text-slate-600">{t('migration.actions.mergeHelp')}</p>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-4" data-merge-form>
        <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
        <Field
          id="migration-merge-advert"
          label={t('migration.actions.advertId')}
          hint={suggested !== undefined ? t('migration.actions.advertIdSuggested') : t('migration.actions.advertIdHint')}
          required
          error={fieldText(t, errors.AdvertId?.message)}
        >
          {(control) => <input {...control} {...register('AdvertId')} type="text" inputMode="numeric" maxLength={9} className={controlClass(Boolean(errors.AdvertId), 'h-11 sm:max-w-48')} />}
        </Field>
        <button type="submit" className={secondaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('migration.actions.merging') : t('migration.actions.merge')}
        </button>
      </form>
      <ConfirmDialog
        open={ask.asking}
        title={t('migration.actions.mergeConfirmTitle', { id: String(getValues('AdvertId')).trim() })}
        body={t('migration.actions.mergeConfirmBody', { name: item.name, id: String(getValues('AdvertId')).trim() })}
        confirmLabel={t('migration.actions.merge')}
        cancelLabel={t('form.cancel')}
        onConfirm={ask.confirm}
        onCancel={ask.cancel}
      />
    </Panel>
  );
}

function RefuseForm({ t, item, handlers }: { t: TFunction; item: MigratedAdvertDetail; handlers: ActionHandlers }) {
  const form = useApiForm({
    schema: RefuseMigratedAdvertSchema,
    defaultValues: { Id: item.id, Reason: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      if (!ask.pass()) return;
      await sendDecision(form, values, () => supportMigrationApi.refuse(values), {
        onDecided: (detail) => handlers.onDone(t('migration.actions.refused'), detail),
        onAlreadyDecided: handlers.onAlreadyDecided,
      });
    },
  });
  const ask = useAskFirst(form.submit);
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  return (
    <Panel id="migration-refuse-title" title={t('migration.actions.refuseTitle')}>
      <p className="mt-1 text-sm text-slate-600">{t('migration.actions.refuseHelp')}</p>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-4" data-refuse-form>
        <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
        <ReasonField id="migration-refuse-reason" label={t('migration.actions.reason')} hint={t('migration.actions.reasonHint')} rows={3} field={register('Reason')} error={fieldText(t, errors.Reason?.message)} />
        <button type="submit" className={secondaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('migration.actions.refusing') : t('migration.actions.refuse')}
        </button>
      </form>
      <ConfirmDialog
        open={ask.asking}
        title={t('migration.actions.refuseConfirmTitle')}
        body={t('migration.actions.refuseConfirmBody', { name: item.name, oldId: item.oldId })}
        confirmLabel={t('migration.actions.refuse')}
        cancelLabel={t('form.cancel')}
        onConfirm={ask.confirm}
        onCancel={ask.cancel}
      />
    </Panel>
  );
}

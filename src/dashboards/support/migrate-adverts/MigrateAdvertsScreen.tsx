/**
 * /support/migrate-adverts/ (Support; issue 18): adverts brought over from the old site. Above, the upload
 * of an export archive (POST migrationimport, docs/migration-format.md): a refused file says why in words;
 * an accepted one opens `?import={id}`, where the import's progress is read again every second (GET
 * migrationimport) until it is done or failed: lines done of all, imported, skipped (imported before) and
 * every refused line with its number and reason. Below, the imported adverts (GET migrationadverts) with
 * their state, searchable by old id, name, email and phone, filtered by state and import, newest first, in
 * pages of PAGE_SIZE; the search and the page are in the address, so reload and back keep them. Each row
 * opens migrate-adverts/{id}/.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { supportMigrationApi } from '#lib/api/support-migration.ts';
import type { Paged } from '#lib/api/support.ts';
import { ApiError, HttpError, REQUEST_ABORTED, isApiError } from '#lib/api/errors.ts';
import { formatDate, formatDateTime } from '#lib/format.ts';
import {
  MIGRATED_ADVERT_STATES,
  MIGRATION_LIMITS,
  MigratedAdvertsQuerySchema,
  type MigratedAdvertItem,
  type MigrationImport,
} from '#lib/schemas/migration.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { failureKey, fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { SearchForm, useSearchedPage, searchHref, searchOf, type ListSearch, type SearchQuery } from '../list-search.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { Table, cell } from '../advert/advert-sections.tsx';
import { Paging } from '../paging.tsx';

export const PAGE_SIZE = 50;

/** How often a running import's progress is read again. */
export const PROGRESS_POLL_MS = 1000;

type Key = 'oldId' | 'name' | 'email' | 'phone' | 'state' | 'import';
type Query = SearchQuery<Key>;
const SEARCH: ListSearch<Key> = {
  name: 'migration',
  keys: ['oldId', 'name', 'email', 'phone', 'state', 'import'],
  fields: { oldId: 'OldId', name: 'Name', email: 'Email', phone: 'Phone', state: 'State', import: 'ImportId' },
  schema: MigratedAdvertsQuerySchema,
  path: supportPath('migrateAdverts'),
};

const STATE_CHOICES = [['', 'migration.search.anyState'], ...MIGRATED_ADVERT_STATES.map((state) => [state, `migration.states.${state}`])] as const;

/** The list's address for a search and a first row. */
export const migrateAdvertsHref = (query: Partial<Query>, skip = 0): string =>
  searchHref(SEARCH, Object.fromEntries(SEARCH.keys.map((key) => [key, query[key] ?? ''])) as Query, skip);

/** One imported advert's screen. */
export const migrateAdvertHref = (id: number): string => `${supportPath('migrateAdverts')}${id}/`;

/** An import is over (nothing more will change by itself). */
export const importFinished = (item: Pick<MigrationImport, 'status'>): boolean => item.status === 'done' || item.status === 'failed';

export default function MigrateAdvertsScreen({ search }: SupportScreenProps) {
  const { query, skip } = searchOf(SEARCH, search);
  return <MigratedList key={migrateAdvertsHref(query, skip)} query={query} skip={skip} />;
}

function MigratedList({ query, skip }: { query: Query; skip: number }) {
  const t = useAppT(supportI18n);
  const { invalid, state, reload } = useSearchedPage(SEARCH, query, { skip, take: PAGE_SIZE }, (body, signal) => supportMigrationApi.adverts(body, signal));
  const importId = !invalid?.import && /^\d{1,9}$/.test(query.import.trim()) ? Number(query.import.trim()) : null;
  return (
    <ScreenShell
      id="migrate-adverts-heading"
      title={t('screens.migrateAdverts')}
      intro={t('migration.intro')}
      aside={
        <>
          <UploadForm t={t} />
          {importId !== null ? <ImportProgress key={importId} t={t} id={importId} onFinished={reload} /> : <RecentImports t={t} />}
          <h2 className="mt-8 text-lg font-semibold text-ink">{t('migration.listTitle')}</h2>
          <SearchForm
            t={t}
            search={SEARCH}
            query={query}
            initialErrors={invalid ?? {}}
            columns="lg:grid-cols-3 lg:items-start"
            buttonsClassName="flex items-end gap-2 sm:col-span-2 lg:col-span-3"
            control={(key, { value, onChange, hasError, ...control }) =>
              key === 'state' ? (
                <select {...control} value={value} onChange={(e) => onChange(e.target.value)} className={controlClass(hasError, 'h-11 w-full')}>
                  {STATE_CHOICES.map(([choice, label]) => (
                    <option key={choice} value={choice}>
                      {t(label)}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...control}
                  type={key === 'phone' ? 'tel' : 'search'}
                  inputMode={key === 'oldId' || key === 'import' ? 'numeric' : undefined}
                  value={value}
                  onChange={(e) => onChange(e.target.value)}
                  maxLength={key === 'phone' ? 40 : 200}
                  className={controlClass(hasError, 'h-11 w-full')}
                />
              )
            }
          />
        </>
      }
      state={state}
      loadError={t('migration.loadError')}
      onRetry={reload}
    >
      {(list) => (invalid ? null : <MigratedTable t={t} list={list} query={query} skip={skip} />)}
    </ScreenShell>
  );
}

/** The refusal of a file the browser can tell before sending it (null: send it). */
export function archiveRefusedBeforeSending(file: File | null): string | null {
  if (!file) return 'required';
  if (file.size > MIGRATION_LIMITS.archiveBytes) return 'archiveTooLarge';
  return null;
}

/** The message key of a failed upload: the server's reason at `File`, too large, or the network's. */
export function uploadFailureKey(error: unknown): string {
  if ((error instanceof ApiError || error instanceof HttpError) && error.status === 413) return 'archiveTooLarge';
  return failureKey(error);
}

/** The upload of an export archive; an accepted file opens its import (`?import=`). */
function UploadForm({ t }: { t: TFunction }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState<number | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const file = input.current?.files?.[0] ?? null;
    const refused = archiveRefusedBeforeSending(file);
    if (refused || !file) {
      setError(refused ?? 'required');
      input.current?.focus();
      return;
    }
    setError(null);
    setSending(0);
    try {
      const started = await supportMigrationApi.upload(file, { onProgress: (fraction) => setSending(fraction) });
      if (input.current) input.current.value = '';
      supportRouter.open(migrateAdvertsHref({ import: String(started.id) }));
    } catch (failure) {
      if (isApiError(failure, 401)) return goToLogin();
      if (failure instanceof Error && failure.message === REQUEST_ABORTED) return;
      setError(uploadFailureKey(failure));
      input.current?.focus();
    } finally {
      setSending(null);
    }
  }

  const message = error ? (error.startsWith('errors.') ? noticeText(t, error) : fieldText(t, error)) : undefined;
  return (
    <section aria-labelledby="migration-upload-title" className="mt-6 rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="migration-upload-title" className="text-lg font-semibold text-ink">
        {t('migration.upload.title')}
      </h2>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-3 space-y-4">
        <Field id="migration-file" label={t('migration.upload.file')} hint={t('migration.upload.help')} required error={message ?? undefined}>
          {(control) => (
            <input
              {...control}
              ref={input}
              type="file"
              accept=".zip,application/zip"
              onChange={() => setError(null)}
              className="mt-1 block w-full text-sm text-ink file:mr-3 file:min-h-11 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:font-medium"
            />
          )}
        </Field>
        {sending !== null ? (
          <p role="status" className="text-sm text-slate-700">
            <progress max={100} value={Math.round(sending * 100)} aria-label={t('migration.upload.progressLabel')} className="mr-3 align-middle" />
            {t('migration.upload.sending', { percent: Math.round(sending * 100) })}
          </p>
        ) : null}
        <button type="submit" className={primaryButton} disabled={sending !== null}>
          {t('migration.upload.submit')}
        </button>
      </form>
    </section>
  );
}

/** An import's progress, read again every PROGRESS_POLL_MS until it is over; `onFinished` once it is. */
function ImportProgress({ t, id, onFinished }: { t: TFunction; id: number; onFinished: () => void }) {
  const [current, setCurrent] = useState<MigrationImport | null>(null);
  const [failed, setFailed] = useState<'notFound' | 'error' | null>(null);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running = false;
    const read = async () => {
      try {
        const answer = await supportMigrationApi.importProgress(id, controller.signal);
        if (controller.signal.aborted) return;
        setCurrent(answer);
        setFailed(null);
        if (importFinished(answer)) {
          // The list was read while the import ran: read it again once, now that it is over.
          if (running) finished.current();
          return;
        }
        running = true;
      } catch (error) {
        if (controller.signal.aborted) return;
        if (isApiError(error, 401)) return goToLogin();
        if (isApiError(error, 404)) return setFailed('notFound');
        setFailed('error');
      }
      timer = setTimeout(() => void read(), PROGRESS_POLL_MS);
    };
    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id]);

  return (
    <section aria-labelledby="migration-import-title" className="mt-6 rounded-xl border border-slate-200 bg-white p-5" data-import={id}>
      <h2 id="migration-import-title" className="text-lg font-semibold text-ink">
        {t('migration.import.title', { id })}
      </h2>
      {failed === 'notFound' ? <p className="mt-2 text-slate-700">{t('migration.import.notFound')}</p> : null}
      {failed === 'error' ? (
        <p role="alert" className="mt-2 text-red-800">
          {t('migration.import.loadError')}
        </p>
      ) : null}
      {current ? <ImportFacts t={t} item={current} /> : failed ? null : <p className="mt-2 text-slate-700">{t('app.loading')}</p>}
    </section>
  );
}

/** The latest imports (migrationimports), each leading to its progress and refused lines; nothing before the first. */
function RecentImports({ t }: { t: TFunction }) {
  const { state } = useScreenData((signal) => supportMigrationApi.imports(signal));
  if (state.status !== 'ready' || state.data.length === 0) return null;
  return (
    <section aria-labelledby="migration-recent-heading" className="mt-6">
      <h2 id="migration-recent-heading" className="text-lg font-semibold text-ink">
        {t('migration.recent.title')}
      </h2>
      <ul className="mt-2 space-y-1 text-slate-800">
        {state.data.map((item) => (
          <li key={item.id}>
            <AppLink router={supportRouter} href={`${supportPath('migrateAdverts')}?import=${item.id}`} className="font-medium text-brand-700 underline">
              {t('migration.import.title', { id: item.id })}
            </AppLink>{' '}
            · {item.fileName} · {formatDateTime(item.createdAt)} · {t(`migration.importStatus.${item.status}`)} ·{' '}
            {t('migration.import.progress', { done: item.doneLines, total: item.totalLines })}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ImportFacts({ t, item }: { t: TFunction; item: MigrationImport }) {
  const over = importFinished(item);
  const percent = item.totalLines > 0 ? Math.round((100 * item.doneLines) / item.totalLines) : over ? 100 : 0;
  const refused = item.lineErrors.length;
  return (
    <>
      <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[minmax(10rem,auto)_1fr]">
        <dt className="font-semibold text-ink">{t('migration.import.file')}</dt>
        <dd className="break-all text-slate-800">{item.fileName}</dd>
        <dt className="font-semibold text-ink">{t('migration.import.uploaded')}</dt>
        <dd className="text-slate-800">{formatDateTime(item.createdAt)}</dd>
        <dt className="font-semibold text-ink">{t('migration.import.status')}</dt>
        <dd className="text-slate-800" data-import-status={item.status}>
          {t(`migration.importStatus.${item.status}`)}
          {item.finishedAt ? ` · ${formatDateTime(item.finishedAt)}` : ''}
        </dd>
        <dt className="font-semibold text-ink">{t('migration.import.lines')}</dt>
        <dd className="text-slate-800">
          <span aria-live="polite" data-import-progress>
            {item.totalLines > 0 || over ? t('migration.import.progress', { done: item.doneLines, total: item.totalLines }) : t('migration.import.waiting')}
          </span>
          <progress max={100} value={percent} aria-label={t('migration.import.progressLabel')} className="ml-3 align-middle" />
        </dd>
        <dt className="font-semibold text-ink">{t('migration.import.imported')}</dt>
        <dd className="tabular-nums text-slate-800" data-import-imported>
          {item.importedLines}
        </dd>
        <dt className="font-semibold text-ink">{t('migration.import.skipped')}</dt>
        <dd className="tabular-nums text-slate-800" data-import-skipped>
          {item.skippedLines}
        </dd>
        <dt className="font-semibold text-ink">{t('migration.import.refused')}</dt>
        <dd className="tabular-nums text-slate-800" data-import-refused>
          {refused}
        </dd>
      </dl>
      {item.error ? (
        <div className="mt-4">
          <FormNotice message={t(`migration.importErrors.${item.error}`)} />
        </div>
      ) : null}
      {refused > 0 ? (
        <Table caption={t('migration.import.linesCaption', { id: item.id })} columns={[t('migration.import.line'), t('migration.import.reason'), t('migration.import.detail')]}>
          {item.lineErrors.map((lineError) => (
            <tr key={`${lineError.line}-${lineError.reason}`} data-line-error={lineError.line}>
              <th scope="row" className={`${cell} font-medium tabular-nums`}>
                {lineError.line}
              </th>
              <td className={cell}>{t(`migration.lineErrors.${lineError.reason}`, { defaultValue: lineError.reason })}</td>
              <td className={`${cell} break-all`}>{lineError.detail ?? ''}</td>
            </tr>
          ))}
        </Table>
      ) : over ? (
        <p className="mt-3 text-slate-700">{t('migration.import.noRefused')}</p>
      ) : null}
    </>
  );
}

function MigratedTable({ t, list, query, skip }: { t: TFunction; list: Paged<MigratedAdvertItem>; query: Query; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t('migration.empty')}</p>;
  const columns = (['state', 'oldId', 'name', 'email', 'phone', 'city', 'pictures', 'imported'] as const).map((column) => t(`migration.columns.${column}`));
  return (
    <>
      <Table caption={t('migration.caption')} columns={columns}>
        {list.items.map((item) => (
          <tr key={item.id} data-migrated-advert={item.id}>
            <td className={cell} data-state={item.state}>
              {t(`migration.states.${item.state}`)}
            </td>
            <td className={`${cell} tabular-nums`}>{item.oldId}</td>
            <th scope="row" className="px-3 py-2 text-left align-top font-medium">
              <AppLink router={supportRouter} href={migrateAdvertHref(item.id)} className="text-brand-700 underline">
                {item.name}
              </AppLink>
            </th>
            <td className={`${cell} break-all`}>{item.email ?? '–'}</td>
            <td className={`${cell} whitespace-nowrap`}>{item.phone ?? '–'}</td>
            <td className={cell}>{item.cityName ?? '–'}</td>
            <td className={`${cell} tabular-nums`}>{item.pictureCount}</td>
            <td className={`${cell} whitespace-nowrap`}>{formatDate(item.createdAt)}</td>
          </tr>
        ))}
      </Table>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => migrateAdvertsHref(query, next)} />
    </>
  );
}

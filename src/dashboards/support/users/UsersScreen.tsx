/**
 * /support/users/ (Administration): the support users by name with their permissions, two-step sign-in,
 * whether they are disabled and their last sign-in; a search on name or email (`?text=`) and pages of
 * PAGE_SIZE (`?skip=`), both in the address so back and reload keep them; "New user" → users/new/.
 */
import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import type { SupportUserList } from '#lib/api/types.ts';
import { formatDateTime } from '#lib/format.ts';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { primaryButton, secondaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { Paging } from '../paging.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { skipOf } from '../../shared/paging.tsx';

export const PAGE_SIZE = 50;

/** The list's address for a search text and a first row. */
export function usersHref(text: string, skip: number): string {
  const query = new URLSearchParams();
  if (text) query.set('text', text);
  if (skip > 0) query.set('skip', String(skip));
  const search = query.toString();
  return `${supportPath('users')}${search ? `?${search}` : ''}`;
}

export default function UsersScreen({ search }: SupportScreenProps) {
  const text = (search['text'] ?? '').trim();
  const skip = skipOf(search);
  // A new search or page loads again (a new list).
  return <UsersList key={`${text}\n${skip}`} text={text} skip={skip} />;
}

function UsersList({ text, skip }: { text: string; skip: number }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) => supportApi.users({ Skip: skip, Take: PAGE_SIZE, ...(text ? { Text: text } : {}) }, signal));
  return (
    <ScreenShell
      id="users-heading"
      title={t('screens.users')}
      intro={t('users.intro')}
      aside={
        <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
          <SearchForm t={t} text={text} />
          <AppLink router={supportRouter} href={`${supportPath('users')}new/`} className={primaryButton}>
            {t('users.new')}
          </AppLink>
        </div>
      }
      state={state}
      loadError={t('users.loadError')}
      onRetry={reload}
    >
      {(list) => <UsersTable t={t} list={list} text={text} skip={skip} />}
    </ScreenShell>
  );
}

function SearchForm({ t, text }: { t: TFunction; text: string }) {
  const [value, setValue] = useState(text);
  function submit(event: FormEvent) {
    event.preventDefault();
    supportRouter.open(usersHref(value.trim(), 0));
  }
  return (
    <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <Field id="users-search" label={t('users.search')}>
        {(control) => (
          <input {...control} type="search" value={value} onChange={(e) => setValue(e.target.value)} maxLength={254} className={controlClass(false, 'h-11 w-72 max-w-full')} />
        )}
      </Field>
      <button type="submit" className={secondaryButton}>
        {t('users.searchSubmit')}
      </button>
    </form>
  );
}

function UsersTable({ t, list, text, skip }: { t: TFunction; list: SupportUserList; text: string; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t('users.empty')}</p>;
  return (
    <>
      <div className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('users.caption')}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {(['name', 'email', 'permissions', 'twoFactor', 'disabled', 'lastLogin'] as const).map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-semibold">
                  {t(`users.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {list.items.map((user) => (
              <tr key={user.id} data-support-user={user.email}>
                <th scope="row" className="px-3 py-2 font-medium">
                  <AppLink router={supportRouter} href={`${supportPath('users')}${user.id}/`} className="text-brand-700 underline">
                    {user.name}
                  </AppLink>
                </th>
                <td className="px-3 py-2 text-slate-800">{user.email}</td>
                <td className="px-3 py-2 text-slate-800">{user.permissions.map((p) => t(`permissions.${p}`)).join(', ')}</td>
                <td className="px-3 py-2 text-slate-800">{user.twoFactorEnabled ? t('users.on') : t('users.off')}</td>
                <td className="px-3 py-2 text-slate-800">{user.disabled ? t('form.yes') : t('form.no')}</td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{user.lastLoginAt ? formatDateTime(user.lastLoginAt) : t('users.never')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => usersHref(text, next)} />
    </>
  );
}

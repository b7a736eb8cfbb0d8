/**
 * /support/users/{id}/ and /support/users/new/ (Administration): a support user's name, email,
 * permissions, a new password (required for a new user) and whether they are disabled (POST users); reset
 * their two-step sign-in and remove them, each after a question. The server's refusals land at their
 * fields (`notYourself`, `lastAdministrator`, a taken email) and the form keeps what was typed; leaving a
 * changed form asks first.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import { isApiError } from '#lib/api/errors.ts';
import type { SupportPermission, SupportUserRow } from '#lib/api/types.ts';
import { formatDateTime } from '#lib/format.ts';
import { SaveSupportUserSchema } from '#lib/schemas/support-user.ts';
import { toast } from '#lib/stores/toasts.ts';
import { CheckboxField, Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { failureKey, fieldText, noticeText, primaryButton, reportFailure, secondaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { ItemScreen } from '../item-screen.tsx';

const PERMISSIONS: readonly SupportPermission[] = ['Support', 'SEO', 'Administration'];

const userHref = (id: number) => `${supportPath('users')}${id}/`;

export default function UserScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  // Another user (or the new one just created) is another screen.
  return <UserLoader key={id} id={id} />;
}

/** undefined: a new user. */
type Loaded = SupportUserRow | undefined;

function UserLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const isNew = id === 'new';
  const numeric = /^\d{1,9}$/.test(id) ? Number(id) : null;
  const { state, setData, reload } = useScreenData<Loaded | 'notFound'>(async (signal) => {
    if (isNew) return undefined;
    if (numeric === null) return 'notFound';
    try {
      return await supportApi.user(numeric, signal);
    } catch (error) {
      if (isApiError(error, 404)) return 'notFound';
      throw error;
    }
  });
  const title = state.status === 'ready' && state.data && state.data !== 'notFound' ? state.data.name : isNew ? t('user.newTitle') : t('screens.user');
  return (
    <ItemScreen
      width="max-w-2xl"
      catalog="user"
      list='users'
      title={title}
      state={state}
      onRetry={reload}
    >
      {(user) => <UserForm t={t} user={user} onSaved={setData} />}
    </ItemScreen>
  );
}

type Values = { email: string; name: string; password: string; permissions: SupportPermission[]; disabled: boolean };

const valuesOf = (user: SupportUserRow | undefined): Values => ({
  email: user?.email ?? '',
  name: user?.name ?? '',
  password: '',
  permissions: user ? [...user.permissions] : [],
  disabled: user?.disabled ?? false,
});

function UserForm({ t, user, onSaved }: { t: TFunction; user: SupportUserRow | undefined; onSaved: (user: SupportUserRow) => void }) {
  const [asking, setAsking] = useState<'reset' | 'remove' | null>(null);
  const form = useApiForm({
    schema: SaveSupportUserSchema,
    defaultValues: { ...valuesOf(user), ...(user ? { id: user.id } : {}) },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const saved = await supportApi.saveUser({
        ...(user ? { id: user.id } : {}),
        email: values.email,
        name: values.name,
        ...(values.password ? { password: values.password } : {}),
        permissions: values.permissions,
        disabled: values.disabled,
      });
      form.reset({ ...valuesOf(saved), id: saved.id });
      if (user) {
        onSaved(saved);
        toast({ title: t('form.saved'), variant: 'success' });
      } else {
        toast({ title: t('user.created'), variant: 'success' });
        supportRouter.open(userHref(saved.id), true);
      }
    },
  });
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  async function resetTwoFactor() {
    if (!user) return;
    setAsking(null);
    try {
      const saved = await supportApi.saveUser({
        id: user.id,
        email: user.email,
        name: user.name,
        permissions: user.permissions,
        disabled: user.disabled,
        resetTwoFactor: true,
      });
      onSaved(saved);
      toast({ title: t('user.resetDone', { name: saved.name }), variant: 'success' });
    } catch (error) {
      failed(error);
    }
  }

  async function remove() {
    if (!user) return;
    setAsking(null);
    try {
      await supportApi.removeUser(user.id);
      form.reset(valuesOf(user));
      toast({ title: t('user.removed', { name: user.name }), variant: 'success' });
      supportRouter.open(supportPath('users'));
    } catch (error) {
      failed(error);
    }
  }

  /** A refusal of reset or remove (notYourself, lastAdministrator) as an error message; 401 signs in again. */
  function failed(error: unknown) {
    const key = failureKey(error);
    if (isApiError(error, 401) || key.startsWith('errors.')) return reportFailure(t, error);
    toast({ title: noticeText(t, key) ?? t('common:errors.generic'), variant: 'error' });
  }

  const err = (name: keyof Values) => fieldText(t, errors[name]?.message);
  const permissionsError = err('permissions');

  return (
    <>
      <form noValidate onSubmit={form.submit} className="mt-6 space-y-5">
        <FormNotice message={noticeText(t, form.notice)} />
        <Field id="user-name" label={t('user.name')} required error={err('name')}>
          {(c) => <input {...c} {...register('name')} autoComplete="off" className={controlClass(Boolean(errors.name), 'h-11')} />}
        </Field>
        <Field id="user-email" label={t('user.email')} required error={err('email')}>
          {(c) => <input {...c} {...register('email')} type="email" autoComplete="off" inputMode="email" className={controlClass(Boolean(errors.email), 'h-11')} />}
        </Field>
        <fieldset aria-describedby={permissionsError ? 'user-permissions-error' : undefined}>
          <legend className="text-sm font-semibold text-ink">
            {t('user.permissions')}
            <span aria-hidden="true"> *</span>
          </legend>
          <div className="mt-2 space-y-2">
            {PERMISSIONS.map((permission) => (
              <CheckboxField
                key={permission}
                id={`user-permission-${permission}`}
                label={
                  <>
                    <span className="font-medium">{t(`permissions.${permission}`)}</span>
                    <span className="text-slate-600"> – {t(`user.permissionHelp.${permission}`)}</span>
                  </>
                }
              >
                {(c) => (
                  <input
                    {...c}
                    {...register('permissions')}
                    type="checkbox"
                    value={permission}
                    aria-invalid={permissionsError ? 'true' : 'false'}
                    className="mt-0.5 h-5 w-5 rounded border-slate-400"
                  />
                )}
              </CheckboxField>
            ))}
          </div>
          {permissionsError ? (
            <p id="user-permissions-error" className="mt-1 text-sm text-red-700">
              {permissionsError}
            </p>
          ) : null}
        </fieldset>
        <Field
          id="user-password"
          label={user ? `${t('user.newPassword')} (${t('form.optional')})` : t('user.password')}
          required={!user}
          hint={user ? t('user.newPasswordHint') : t('user.passwordHint')}
          error={err('password')}
        >
          {(c) => <input {...c} {...register('password')} type="password" autoComplete="new-password" className={controlClass(Boolean(errors.password), 'h-11')} />}
        </Field>
        <CheckboxField id="user-disabled" label={t('user.disabled')} error={err('disabled')}>
          {(c) => <input {...c} {...register('disabled')} type="checkbox" className="mt-0.5 h-5 w-5 rounded border-slate-400" />}
        </CheckboxField>
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {user ? (isSubmitting ? t('form.saving') : t('form.save')) : isSubmitting ? t('user.creating') : t('user.create')}
        </button>
      </form>

      {user ? (
        <>
          <p className="mt-6 text-sm text-slate-700">{user.lastLoginAt ? t('user.lastLogin', { time: formatDateTime(user.lastLoginAt) }) : t('user.neverLoggedIn')}</p>
          <section aria-labelledby="user-two-factor-title" className="mt-8 rounded-xl border border-slate-200 bg-white p-5">
            <h2 id="user-two-factor-title" className="text-lg font-semibold text-ink">
              {t('user.twoFactorTitle')}
            </h2>
            <p className="mt-1 text-slate-800" data-user-two-factor>
              {user.twoFactorEnabled ? t('user.twoFactorOn') : t('user.twoFactorOff')}
            </p>
            {user.twoFactorEnabled ? (
              <button type="button" className={`${secondaryButton} mt-3`} onClick={() => setAsking('reset')}>
                {t('user.resetTwoFactor')}
              </button>
            ) : null}
          </section>
          <div className="mt-8">
            <button type="button" className="inline-flex min-h-11 items-center justify-center rounded-lg border border-red-300 bg-white px-4 font-medium text-red-800 hover:bg-red-50" onClick={() => setAsking('remove')}>
              {t('user.remove')}
            </button>
          </div>
          <ConfirmDialog
            open={asking === 'reset'}
            title={t('user.resetTitle')}
            body={t('user.resetBody', { name: user.name })}
            confirmLabel={t('user.resetConfirm')}
            cancelLabel={t('form.cancel')}
            onConfirm={() => void resetTwoFactor()}
            onCancel={() => setAsking(null)}
          />
          <ConfirmDialog
            open={asking === 'remove'}
            title={t('user.removeTitle')}
            body={t('user.removeBody', { name: user.name, email: user.email })}
            confirmLabel={t('user.removeConfirm')}
            cancelLabel={t('form.cancel')}
            onConfirm={() => void remove()}
            onCancel={() => setAsking(null)}
          />
        </>
      ) : null}
    </>
  );
}

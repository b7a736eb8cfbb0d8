/**
 * While support is signed in as the advertiser (impersonation, userprofile's `impersonation`): a banner on
 * every backend screen naming both, with Stop. Stop ends the impersonation session (POST logout, audited
 * as the stop) and goes back to the advert in the support area.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { backendApi } from '#lib/api/backend.ts';
import type { UserProfile } from '#lib/api/types.ts';

type Props = { t: TFunction; impersonation: NonNullable<UserProfile['impersonation']> };

export function ImpersonationBanner({ t, impersonation }: Props) {
  const [stopping, setStopping] = useState(false);

  function stop() {
    setStopping(true);
    const back = impersonation.advertId ? `/support/adverts/${impersonation.advertId}/` : '/support/';
    backendApi
      .logout()
      .catch(() => undefined)
      .finally(() => location.assign(back));
  }

  return (
    <section
      aria-label={t('impersonation.region')}
      data-testid="impersonation-banner"
      className="mb-6 flex flex-wrap items-center gap-3 rounded-lg border-2 border-amber-500 bg-amber-50 px-4 py-3 text-amber-950"
    >
      <div className="min-w-0 flex-1">
        <p className="font-semibold">
          {t('impersonation.banner', {
            name: impersonation.advertName || t('impersonation.unnamed'),
            support: impersonation.supportUserName,
          })}
        </p>
        <p className="text-sm">{t('impersonation.explain')}</p>
      </div>
      <button
        type="button"
        onClick={stop}
        disabled={stopping}
        className="inline-flex min-h-11 items-center justify-center rounded-lg bg-amber-800 px-5 font-semibold text-white hover:bg-amber-900 disabled:opacity-60"
      >
        {stopping ? t('impersonation.stopping') : t('impersonation.stop')}
      </button>
    </section>
  );
}

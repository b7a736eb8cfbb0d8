/**
 * What a field shows while a change waits for support's approval: an "Awaiting approval" badge and the
 * value the public sees now. The input itself holds the proposed value.
 */
import type { TFunction } from 'i18next';

export function PendingHint({ t, current }: { t: TFunction; current: string }) {
  return (
    <span className="flex flex-wrap items-center gap-2" data-pending>
      <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
        {t('form.pending')}
      </span>
      <span className="text-slate-700">{t('form.current', { value: current || t('form.none') })}</span>
    </span>
  );
}

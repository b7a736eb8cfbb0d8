/** Words the validation screens share: the risk signals (in red where they suggest a minor), the method and the status. */
import type { TFunction } from 'i18next';
import type { ValidationItem, ValidationRisk } from '#lib/schemas/verification.ts';

/** Signals that suggest a minor: white on red. The others: red outline. */
const URGENT: readonly string[] = ['under18ByDateOfBirth', 'under18ByAdvertAge', 'minorReported', 'minorWords'];

export const isUrgent = (risk: readonly ValidationRisk[]) => risk.some((r) => URGENT.includes(r));

export function RiskFlags({ t, risk }: { t: TFunction; risk: readonly ValidationRisk[] }) {
  if (risk.length === 0) return null;
  return (
    <ul className="mb-1 flex flex-wrap gap-1" aria-label={t('validationQueue.riskLabel')}>
      {risk.map((r) => (
        <li
          key={r}
          data-risk={r}
          className={
            URGENT.includes(r)
              ? 'rounded-md bg-red-700 px-2 py-0.5 text-xs font-semibold text-white'
              : 'rounded-md border border-red-700 px-2 py-0.5 text-xs font-semibold text-red-800'
          }
        >
          {t(`validationQueue.risk.${r}`, { defaultValue: r })}
        </li>
      ))}
    </ul>
  );
}

/** document, video, provider → words (an unknown method as it is). */
export function methodText(t: TFunction, method: string): string {
  return t(`validationQueue.method.${method}`, { defaultValue: method });
}

/** 1 Pending, 2 Validated, 3 Declined, 4 Rejected → words. */
export function statusText(t: TFunction, status: number): string {
  return t(`validationQueue.status.${status}`, { defaultValue: String(status) });
}

/** The loud mark of a built-in TEST provider's result: no age was checked (docs/decisions/019-test-providers-and-yoti.md). */
export function TestProviderMark({ t, item }: { t: TFunction; item: Pick<ValidationItem, 'provider'> }) {
  if (!item.provider?.test) return null;
  return (
    <span data-test-provider className="ml-1 inline-block rounded-md border-2 border-amber-700 bg-amber-100 px-2 py-0.5 text-xs font-bold uppercase text-amber-900">
      {t('validationQueue.testProvider')}
    </span>
  );
}

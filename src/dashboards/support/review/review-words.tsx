/** Words the review screens share: the risk signals (a suspected minor in red). */
import type { TFunction } from 'i18next';
import type { RiskSignal } from '#lib/schemas/review.ts';

/** The risk signals in words; "none" without any. */
export function RiskFlags({ t, risk }: { t: TFunction; risk: readonly RiskSignal[] }) {
  if (risk.length === 0) return <span className="text-slate-700">{t('review.none')}</span>;
  return (
    <ul className="flex flex-wrap gap-1" data-risk>
      {risk.map((signal) => (
        <li
          key={signal}
          data-risk-signal={signal}
          className={
            signal === 'minorWords'
              ? 'rounded-md bg-red-700 px-2 py-0.5 text-xs font-semibold text-white'
              : 'rounded-md border border-amber-700 px-2 py-0.5 text-xs font-semibold text-amber-900'
          }
        >
          {t(`review.risk.${signal}`)}
        </li>
      ))}
    </ul>
  );
}

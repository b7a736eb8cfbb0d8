/**
 * What a boost or a package brought (issue 32, docs/decisions/040): the advert's figures on the boost's days
 * against the same weekdays of the weeks just before it, and nothing the data does not support.
 *
 * Each day of the boost that is over and on which the advert was public is paired with the nearest earlier
 * day of the same weekday, at most MAX_WEEKS_BACK weeks before the boost began, on which the advert was
 * public and not boosted the same way; a boost day without such a day is left out, so both sides always
 * hold as many days, of the same weekdays. The comparison is made only with at least MIN_PAIRS pairs and
 * MIN_IMPRESSIONS impressions on the two sides together; otherwise it says there is too little to compare.
 */

/** The figures of one Copenhagen day (yyyy-MM-dd) of an advert. */
export type DayFigures = {
  day: string;
  /** The advert was public that day (shown on the site): days it was not say nothing about a boost. */
  public: boolean;
  impressions: number;
  views: number;
  phoneReveals: number;
  contactTaps: number;
};

export type Totals = Pick<DayFigures, 'impressions' | 'views' | 'phoneReveals' | 'contactTaps'>;

/** A boost's days, first and last included (yyyy-MM-dd). */
export type Period = { from: string; to: string };

export type BoostComparison =
  | { verdict: 'compared'; pairs: { day: string; before: string }[]; during: Totals; before: Totals }
  | { verdict: 'tooLittle'; reason: 'notStarted' | 'tooFewDays' | 'tooFewImpressions'; pairs: number };

/** At least this many pairs of days … */
export const MIN_PAIRS = 3;
/** … and this many impressions on both sides together, or there is too little to compare. */
export const MIN_IMPRESSIONS = 100;
/** How far back a boost day's same weekday is looked for. */
export const MAX_WEEKS_BACK = 4;

const DAY_MS = 86_400_000;

/** A yyyy-MM-dd day `n` calendar days later (earlier when negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

const ZERO: Totals = { impressions: 0, views: 0, phoneReveals: 0, contactTaps: 0 };

function add(totals: Totals, day: DayFigures): Totals {
  return {
    impressions: totals.impressions + day.impressions,
    views: totals.views + day.views,
    phoneReveals: totals.phoneReveals + day.phoneReveals,
    contactTaps: totals.contactTaps + day.contactTaps,
  };
}

/** Whether `day` lies in one of the periods. */
const within = (day: string, periods: readonly Period[]) => periods.some((period) => day >= period.from && day <= period.to);

/**
 * The boost `boost` compared with the weeks before it. `figures` holds the advert's days (missing days
 * count as not public); `sameKind` the advert's boosts of the same kind (this one included), whose days
 * are never used as days before; `today` the Copenhagen day now (today is not over: it is left out).
 */
export function compareBoost(figures: ReadonlyMap<string, DayFigures>, boost: Period, sameKind: readonly Period[], today: string): BoostComparison {
  const lastDay = boost.to < today ? boost.to : addDays(today, -1);
  if (lastDay < boost.from) return { verdict: 'tooLittle', reason: 'notStarted', pairs: 0 };
  const used = new Set<string>();
  const pairs: { day: string; before: string }[] = [];
  for (let day = boost.from; day <= lastDay; day = addDays(day, 1)) {
    if (!figures.get(day)?.public) continue;
    for (let week = 1; ; week += 1) {
      const before = addDays(day, -7 * week);
      if (before < addDays(boost.from, -7 * MAX_WEEKS_BACK)) break;
      if (before >= boost.from || used.has(before) || within(before, sameKind) || !figures.get(before)?.public) continue;
      used.add(before);
      pairs.push({ day, before });
      break;
    }
  }
  if (pairs.length < MIN_PAIRS) return { verdict: 'tooLittle', reason: 'tooFewDays', pairs: pairs.length };
  const during = pairs.reduce((totals, pair) => add(totals, figures.get(pair.day)!), ZERO);
  const before = pairs.reduce((totals, pair) => add(totals, figures.get(pair.before)!), ZERO);
  if (during.impressions + before.impressions < MIN_IMPRESSIONS) return { verdict: 'tooLittle', reason: 'tooFewImpressions', pairs: pairs.length };
  return { verdict: 'compared', pairs, during, before };
}

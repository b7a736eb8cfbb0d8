/**
 * How long ago something happened, in the largest whole unit the dashboard uses: under a minute is
 * "just now", then minutes, hours and days. The screen words it (`dashboard.age.*`, plural by count).
 */
export type RelativeAge = { unit: 'justNow' } | { unit: 'minutes' | 'hours' | 'days'; count: number };

export function relativeAge(then: Date | string, now: Date): RelativeAge {
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(then).getTime()) / 1000));
  if (seconds < 60) return { unit: 'justNow' };
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { unit: 'minutes', count: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: 'hours', count: hours };
  return { unit: 'days', count: Math.floor(hours / 24) };
}

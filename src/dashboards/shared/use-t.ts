/** `t` of a dashboard's i18next instance in the current app locale (re-renders on a language switch). */
import { useMemo } from 'react';
import { useStore } from '@nanostores/react';
import type { i18n, TFunction } from 'i18next';
import { $locale } from '#lib/stores/locale.ts';

export function useAppT(instance: i18n): TFunction {
  const locale = useStore($locale);
  return useMemo(() => instance.getFixedT(locale), [instance, locale]);
}

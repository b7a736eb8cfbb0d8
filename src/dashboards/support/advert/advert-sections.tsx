/** What the sections of adverts/{id}/ share: their names and addresses, the page size, and the loading of a section's data (paging: ../paging.tsx). */
import type { ReactNode } from 'react';
import { smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath } from '../routes.ts';

/** The sections in the order of the tabs; '' is the overview. */
export const SECTIONS = ['', 'sign-ins', 'history', 'media', 'messages', 'reviews', 'reports'] as const;
export type Section = (typeof SECTIONS)[number];
export const MEDIA_SUBSECTIONS = ['current', 'deleted'] as const;
export type MediaSubsection = (typeof MEDIA_SUBSECTIONS)[number];

/** Rows per page of the paged sections (sign-ins, history, messages). */
export const SECTION_PAGE_SIZE = 25;

/** The address of a section (and subsection) of an advert, with a first row when paged. */
export function advertHref(id: number, section: Section = '', subsection = '', skip = 0): string {
  const path = [section, subsection].filter(Boolean).map((part) => `${part}/`).join('');
  return `${supportPath('adverts')}${id}/${path}${skip > 0 ? `?skip=${skip}` : ''}`;
}

/** Loads a section's data: "loading", the load error with a retry, then the section. */
export function SectionData<T>({ load, loadError, children }: { load: (signal: AbortSignal) => Promise<T>; loadError: string; children: (data: T, setData: (data: T) => void, reload: () => void) => ReactNode }) {
  const t = useAppT(supportI18n);
  const { state, setData, reload } = useScreenData(load);
  if (state.status === 'loading') return <p className="mt-4 text-slate-700">{t('app.loading')}</p>;
  if (state.status === 'error') {
    return (
      <div className="mt-4">
        <p role="alert" className="text-red-800">
          {loadError}
        </p>
        <button type="button" className={`${smallButton} mt-3`} onClick={reload}>
          {t('app.retry')}
        </button>
      </div>
    );
  }
  return <>{children(state.data, setData, reload)}</>;
}

/** A table with a caption for screen readers and column headings, in a region that scrolls sideways. */
/**
 * A table with a caption for screen readers and column headings, in a region that scrolls sideways.
 * `numbers`: every column after the first holds figures, its heading right-aligned over them.
 */
export function Table({
  caption,
  columns,
  children,
  numbers = false,
  className = 'mt-4',
}: {
  caption: string;
  columns: string[];
  children: ReactNode;
  numbers?: boolean;
  className?: string;
}) {
  const heading = (index: number) =>
    numbers ? `px-3 py-2 font-semibold ${index === 0 ? 'text-left' : 'text-right'}` : 'whitespace-nowrap px-3 py-2 text-left font-semibold';
  return (
    // Scrolls sideways on narrow screens: focusable, so the keyboard can scroll it too.
    <div role="region" aria-label={caption} tabIndex={0} className={`overflow-x-auto rounded-xl border border-slate-200 bg-white ${className}`}>
      <table className={`w-full text-sm ${numbers ? '' : 'text-left'}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {columns.map((column, index) => (
              <th key={column} scope="col" className={heading(index)}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  );
}

export const cell = 'px-3 py-2 align-top text-slate-800';

/**
 * Language dropdown (spec: "Language can be switched from a dropdown in the headers"). Choosing a language
 * stores it in the `locale` cookie (1 year) and moves to the twin URL of the current page. Escape or a click
 * outside closes the list.
 */
import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { localeCookie, twinPath, type Locale } from '#lib/i18n/locales.ts';

export type LanguageOption = { name: Locale; title: string };

type Props = {
  locale: Locale;
  languages: LanguageOption[];
  label: string;
  /** Where each language goes when the twin is not simply the same path under /en/ (e.g. articles). */
  targets?: Partial<Record<Locale, string>>;
  /** The page's own path at build time, used for the links before hydration. */
  path: string;
  /** 'list' renders an always-open list (mobile menu). */
  variant?: 'dropdown' | 'list';
};

/** The link target rendered in HTML (same on the server and in the browser). */
function staticTarget(locale: Locale, targets: Props['targets'], path: string): string {
  return targets?.[locale] ?? twinPath(path, locale);
}

/** Stores the choice and moves to the twin of the page actually shown (client-side routes included). */
function choose(event: MouseEvent<HTMLAnchorElement>, locale: Locale, targets: Props['targets']) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  document.cookie = localeCookie(locale, location.protocol === 'https:');
  location.assign(targets?.[locale] ?? twinPath(location.pathname, locale) + location.search);
}

function Code({ locale }: { locale: Locale }) {
  return (
    <span aria-hidden="true" className="inline-flex h-6 min-w-7 items-center justify-center rounded bg-slate-100 px-1 text-xs font-bold uppercase text-slate-700">
      {locale}
    </span>
  );
}

export default function LanguagePicker({ locale, languages, label, targets, path, variant = 'dropdown' }: Props) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const current = languages.find((l) => l.name === locale);

  useEffect(() => {
    if (!open) return;
    function onKey(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    }
    function onPointer(event: PointerEvent) {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const links = languages.map((language) => {
    const href = staticTarget(language.name, targets, path);
    const isCurrent = language.name === locale;
    return (
      <li key={language.name}>
        <a
          href={href}
          hrefLang={language.name}
          lang={language.name}
          aria-current={isCurrent ? 'true' : undefined}
          data-locale-link={language.name}
          onClick={(event) => choose(event, language.name, targets)}
          className={`flex min-h-11 items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-slate-100 ${isCurrent ? 'font-semibold text-brand-700' : 'text-slate-800'}`}
        >
          <Code locale={language.name} />
          {language.title}
        </a>
      </li>
    );
  });

  if (variant === 'list') {
    return (
      <nav aria-label={label}>
        <ul className="flex flex-col gap-1">{links}</ul>
      </nav>
    );
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={`${label}: ${current?.title ?? locale}`}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
      >
        <Code locale={locale} />
        <span className="hidden lg:inline">{current?.title}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
      <ul
        id={listId}
        hidden={!open}
        className="absolute right-0 z-40 mt-1 w-44 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
      >
        {links}
      </ul>
    </div>
  );
}

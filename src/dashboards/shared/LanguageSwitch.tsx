/** Da/En switch of the client-only apps: changes the language in place and stores the choice. */
import { useStore } from '@nanostores/react';
import { $locale, setLocale } from '#lib/stores/locale.ts';
import { locales } from '#lib/i18n/locales.ts';

type Props = { label: string; names: Record<string, string> };

export function LanguageSwitch({ label, names }: Props) {
  const locale = useStore($locale);
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5">
      {locales.map((l) => (
        <button
          key={l}
          type="button"
          lang={l}
          aria-pressed={l === locale}
          title={names[l]}
          data-locale-button={l}
          onClick={() => setLocale(l)}
          className={`min-h-9 min-w-10 rounded-md px-2 text-xs font-bold uppercase ${l === locale ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
        >
          {l}
          <span className="sr-only"> {names[l]}</span>
        </button>
      ))}
    </div>
  );
}

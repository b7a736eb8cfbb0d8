/**
 * Location autocomplete (searchpagesearchlocation): type a city or region, choose a suggestion with the
 * mouse or the arrow keys and Enter, and the browser goes to that place's landing page. ARIA combobox
 * with a listbox; Escape closes the suggestions.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { frontendApi } from '#lib/api/frontend.ts';
import type { LocationSuggestion } from '#lib/api/types.ts';

export type LocationSearchText = { label: string; placeholder: string; region: string; none: string };

type Props = {
  locale: string;
  text: LocationSearchText;
  /** Where a suggestion leads (the landing page of the current kind, filters kept). */
  hrefFor: (suggestion: LocationSuggestion) => string;
};

const MIN_CHARS = 2;
const DEBOUNCE_MS = 200;

export default function LocationSearch({ locale, text, hrefFor }: Props) {
  const id = useId();
  const [value, setValue] = useState('');
  const [suggestions, setSuggestions] = useState<LocationSuggestion[]>([]);
  const [searched, setSearched] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    const needle = value.trim();
    if (needle.length < MIN_CHARS) {
      controller.current?.abort();
      setSuggestions([]);
      setSearched(false);
      return;
    }
    const timer = setTimeout(() => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      frontendApi.searchLocation(needle, locale, current.signal).then(
        (found) => {
          setSuggestions(found.slice(0, 10));
          setSearched(true);
          setActive(-1);
        },
        (error: unknown) => {
          if (!current.signal.aborted) console.warn('Location search failed', error);
        },
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, locale]);

  useEffect(() => () => controller.current?.abort(), []);

  /** The visitor's words are a search term once chosen (counted by the server, never who typed them). */
  const countChosen = () => {
    frontendApi.chosenLocation(value.trim(), locale).catch(() => {});
  };

  const choose = (suggestion: LocationSuggestion) => {
    setOpen(false);
    countChosen();
    location.assign(hrefFor(suggestion));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && suggestions.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && suggestions.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index <= 0 ? suggestions.length - 1 : index - 1));
    } else if (event.key === 'Enter') {
      const suggestion = suggestions[active] ?? (suggestions.length === 1 ? suggestions[0] : undefined);
      if (suggestion) {
        event.preventDefault();
        choose(suggestion);
      } else if (searched && suggestions.length === 0 && value.trim().length >= MIN_CHARS) {
        // Nothing matched what was typed: still a search term (one that found nothing).
        countChosen();
      }
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const listId = `${id}-list`;
  const expanded = open && value.trim().length >= MIN_CHARS && searched;

  return (
    <div className="relative">
      <label htmlFor={`${id}-input`} className="block text-sm font-semibold text-ink">
        {text.label}
      </label>
      <input
        id={`${id}-input`}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
        autoComplete="off"
        value={value}
        placeholder={text.placeholder}
        onChange={(event) => {
          setValue(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="mt-1 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-ink placeholder:text-slate-500"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={text.label}
        hidden={!expanded}
        className="absolute right-0 left-0 z-20 mt-1 max-h-72 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
      >
        {suggestions.length === 0 ? (
          <li role="option" aria-selected="false" aria-disabled="true" className="px-3 py-2 text-sm text-muted">
            {text.none}
          </li>
        ) : (
          suggestions.map((suggestion, index) => (
            <li
              key={`${suggestion.regionSlug}/${suggestion.citySlug ?? ''}`}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              // mousedown, not click: it comes before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(suggestion);
              }}
              className={`flex min-h-11 cursor-pointer flex-col justify-center rounded-md px-3 py-1.5 text-sm ${index === active ? 'bg-brand-50 text-brand-800' : 'text-ink hover:bg-slate-50'}`}
            >
              <span className="font-medium">{suggestion.name}</span>
              <span className="text-xs text-muted">{suggestion.type === 'city' ? suggestion.region : text.region}</span>
            </li>
          ))
        )}
      </ul>
    </div>
  );
}

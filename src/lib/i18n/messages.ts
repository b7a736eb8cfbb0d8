/**
 * Public islands get their strings as a small flat `messages` prop picked at build time, instead of
 * shipping i18next and a whole catalog to every visitor. `translate` fills {{placeholders}}.
 */
import type { Catalog } from './index.ts';

export type Messages = Record<string, string>;

/** Flattens a nested catalog to 'a.b.c' keys. */
export function flattenCatalog(catalog: Catalog, prefix = ''): Messages {
  const out: Messages = {};
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flattenCatalog(value, path));
  }
  return out;
}

/** The flat entries of `catalog` whose key is one of `prefixes` or starts with `prefix.`. */
export function pickMessages(catalog: Catalog, prefixes: string[]): Messages {
  const flat = flattenCatalog(catalog);
  const out: Messages = {};
  for (const [key, value] of Object.entries(flat)) {
    if (prefixes.some((p) => key === p || key.startsWith(`${p}.`))) out[key] = value;
  }
  return out;
}

/**
 * Looks a key up in `messages` and fills {{name}} placeholders; a missing key returns the key itself.
 * With a numeric `count`, the plural forms `key_one` / `key_other` (i18next's keys) are used when present.
 */
export function translate(messages: Messages, key: string, values?: Record<string, string | number>): string {
  const count = values?.['count'];
  const plural = typeof count === 'number' ? messages[`${key}_${count === 1 ? 'one' : 'other'}`] : undefined;
  const template = plural ?? messages[key] ?? key;
  if (!values) return template;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  );
}

/** A `t(key, values)` bound to a messages object, for islands. */
export function messagesT(messages: Messages): (key: string, values?: Record<string, string | number>) => string {
  return (key, values) => translate(messages, key, values);
}

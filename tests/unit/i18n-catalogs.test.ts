/**
 * The catalogs are complete: every namespace has the same keys in da and en, no value is empty, the
 * {{placeholders}} match, and every literal t('...') key used in src exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { flattenCatalog } from '#lib/i18n/messages.ts';
import type { Catalog } from '#lib/i18n/index.ts';

const root = path.resolve(import.meta.dirname, '../..');
const i18nDir = path.join(root, 'src/lib/i18n');
const namespaces = readdirSync(path.join(i18nDir, 'da'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

const readCatalog = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Catalog;

/** A namespace's catalog: `{ns}.json` merged with the per-screen files in `{ns}/` (see src/dashboards/backend/i18n.ts). */
function load(locale: string, ns: string): Record<string, string> {
  const parts = [readCatalog(path.join(i18nDir, locale, `${ns}.json`))];
  const folder = path.join(i18nDir, locale, ns);
  if (existsSync(folder)) {
    for (const name of readdirSync(folder).filter((f) => f.endsWith('.json')).sort()) {
      const part = readCatalog(path.join(folder, name));
      expect(Object.keys(part), `${locale}/${ns}/${name} holds one key named after the file`).toEqual([name.replace(/\.json$/, '')]);
      parts.push(part);
    }
  }
  return flattenCatalog(Object.assign({}, ...parts) as Catalog);
}

const catalogs = Object.fromEntries(
  ['da', 'en'].map((locale) => [locale, Object.fromEntries(namespaces.map((ns) => [ns, load(locale, ns)]))]),
) as Record<'da' | 'en', Record<string, Record<string, string>>>;

const placeholders = (value: string) => [...value.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('i18n catalogs', () => {
  it('has the namespaces common, backend and support in both languages', () => {
    expect(namespaces.sort()).toEqual(['backend', 'common', 'support']);
    expect(readdirSync(path.join(i18nDir, 'en')).filter((f) => f.endsWith('.json')).sort()).toEqual(
      namespaces.map((ns) => `${ns}.json`).sort(),
    );
  });

  for (const ns of namespaces) {
    it(`${ns}: the same keys in da and en, no empty value, matching placeholders`, () => {
      const da = catalogs.da[ns]!;
      const en = catalogs.en[ns]!;
      expect(Object.keys(en).filter((k) => !(k in da)), `keys missing in da/${ns}.json`).toEqual([]);
      expect(Object.keys(da).filter((k) => !(k in en)), `keys missing in en/${ns}.json`).toEqual([]);
      for (const [locale, catalog] of [['da', da], ['en', en]] as const) {
        const empty = Object.entries(catalog).filter(([, v]) => v.trim() === '').map(([k]) => k);
        expect(empty, `empty values in ${locale}/${ns}.json`).toEqual([]);
      }
      const mismatched = Object.keys(da).filter((k) => en[k] !== undefined && placeholders(da[k]!).join() !== placeholders(en[k]!).join());
      expect(mismatched, `placeholders differ in ${ns}`).toEqual([]);
    });
  }

  it('every literal t() key used in src exists in its namespace', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) {
          if (name !== 'server' && name !== 'node_modules') walk(full);
        } else if (/\.(ts|tsx|astro)$/.test(name)) files.push(full);
      }
    };
    walk(path.join(root, 'src'));

    const missing: string[] = [];
    let checked = 0;
    for (const file of files) {
      const rel = path.relative(root, file);
      // A file's own namespace: the app's for the dashboards, common elsewhere; common is the fallback.
      const own = rel.includes('dashboards/backend') ? 'backend' : rel.includes('dashboards/support') ? 'support' : 'common';
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/\bt\(\s*'([^'$]+)'/g)) {
        const raw = match[1]!;
        const [ns, key] = raw.includes(':') ? (raw.split(':', 2) as [string, string]) : [own, raw];
        const candidates = [ns, ...(raw.includes(':') ? [] : ['common'])];
        const found = candidates.some((candidate) => {
          const catalog = catalogs.da[candidate];
          return catalog !== undefined && (key in catalog || `${key}_one` in catalog || `${key}_other` in catalog);
        });
        checked += 1;
        if (!found) missing.push(`${rel}: t('${raw}')`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});

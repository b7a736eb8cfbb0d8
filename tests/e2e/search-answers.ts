/**
 * What a search landing page shows, for browser tests that run while other tests publish, hide and approve
 * adverts and the site is rebuilt: a page shows either the totals and first page its build baked in, or
 * the answer it was given by searchpageprofiles (filters, paging, and this minute's turn of search-boosted
 * adverts). So the tests compare the page with its own island's built props or with the answer the page
 * itself received, never with a separate snapshot of the API.
 */
import type { Page, Response } from '@playwright/test';
import { expect } from './fixtures.ts';

export type SearchAnswer = { total: number; items: { id: number; name: string; url: string; validated: boolean }[] };

/** The result count as the Danish page says it. */
export const countText = (total: number) => (total === 1 ? '1 annonce' : `${total} annoncer`);

export const resultCount = (page: Page) => page.locator('[data-result-count]');
export const resultCards = (page: Page) => page.locator('#main [data-advert-card]');

/** Call parameters that are not filters (SearchFilters.tsx sends them with every search). */
const NOT_FILTERS = new Set(['Url', 'Text', 'PageSize', 'Locale']);

/**
 * The next answer of `endpoint` (searchpageprofiles, or searchpageprofileswithfreetext) to the page, for a
 * call whose `Url` (or `Text`) is `target` and whose filters and page are exactly `filters` (the API's
 * names: Validated, Languages, AgeFrom, Page, ...; Page is 1 unless given). Register it before the action
 * that makes the call.
 */
export function nextSearchAnswer(
  page: Page,
  target: { url: string } | { text: string },
  filters: Record<string, string> = {},
): Promise<SearchAnswer> {
  const endpoint = 'url' in target ? '/api/frontend/searchpageprofiles' : '/api/frontend/searchpageprofileswithfreetext';
  const expected = { Page: '1', ...filters };
  const matches = (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname !== endpoint || response.request().method() !== 'GET') return false;
    if ('url' in target ? url.searchParams.get('Url') !== target.url : url.searchParams.get('Text') !== target.text) return false;
    const sent = Object.fromEntries([...url.searchParams].filter(([name]) => !NOT_FILTERS.has(name)));
    return Object.keys(sent).length === Object.keys(expected).length && Object.entries(expected).every(([name, value]) => sent[name] === value);
  };
  return page.waitForResponse(matches).then(async (response) => {
    expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(200);
    return (await response.json()) as SearchAnswer;
  });
}

/** What the landing page's build gave its search island (the island's serialised props: Astro's [type, value] pairs). */
export async function builtLanding(page: Page): Promise<{ total: number; promotedFirst: boolean }> {
  const island = page.locator('astro-island', { has: page.locator('[data-search-ready]') });
  const props = JSON.parse((await island.getAttribute('props')) ?? '{}') as Record<string, [number, unknown] | undefined>;
  const total = props['initialTotal']?.[1];
  const promotedFirst = props['promotedFirst']?.[1];
  expect(typeof total, 'the island was built with its total').toBe('number');
  expect(typeof promotedFirst, 'the island was built knowing whether it begins with promoted adverts').toBe('boolean');
  return { total: total as number, promotedFirst: promotedFirst as boolean };
}

/**
 * For an action that shows the landing page at `url` without filters (opening it, or back to it): call
 * this before the action, and the function it answers after it. That asserts what the page then shows:
 * the build's total with its prebuilt first page, or, when the build's first page begins with
 * search-promoted adverts (their turn changes every minute, so the island fetches this minute's first
 * page), the total and first card of that answer. Answers the total shown.
 */
export function expectUnfilteredLanding(page: Page, url: string): () => Promise<number> {
  const live = nextSearchAnswer(page, { url });
  // Awaited only when the page fetches this minute's first page; a page that does not leaves it waiting.
  live.catch(() => undefined);
  return async () => {
    const built = await builtLanding(page);
    if (!built.promotedFirst) {
      await expect(page.locator('[data-prebuilt-results]')).toBeVisible();
      await expect(resultCount(page)).toHaveText(countText(built.total));
      return built.total;
    }
    const answer = await live;
    await expect(resultCount(page)).toHaveText(countText(answer.total));
    await expect(resultCards(page).first()).toHaveAttribute('data-advert-card', String(answer.items[0]!.id));
    return answer.total;
  };
}

/** The total a landing page's HTML (as served) was built with: its search island's `initialTotal` prop. */
export function builtTotalIn(html: string): number {
  const total = /\binitialTotal&quot;:\[0,(\d+)\]/.exec(html)?.[1];
  expect(total, 'the landing page has its search island with the built total').toBeDefined();
  return Number(total);
}

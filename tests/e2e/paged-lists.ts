/**
 * Finding a test's own row in a paged support list (Skip/Take), through the API or on the support screen
 * that shows it, while other workers change the list. Walking the pages once can miss the row: when a row
 * before it leaves the list (approved, decided) between two pages, the row moves back onto a page already
 * read. So the walk starts again from the first page until the row is found, or fails at the deadline.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

export type PagedAnswer<T> = { total: number; items: T[] };

/**
 * The first item of the list at `path` (GET, `params` plus Skip and Take) that `matches`, walking its pages
 * (`take` rows each) from the first one again until it is found; fails after `timeout` ms.
 */
export async function findInPagedList<T>(
  api: APIRequestContext,
  path: string,
  matches: (item: T) => boolean,
  options: { params?: Record<string, string>; take?: number; timeout?: number; what?: string } = {},
): Promise<T> {
  const take = options.take ?? 200;
  let found: T | undefined;
  await expect
    .poll(
      async () => {
        for (let skip = 0; ; skip += take) {
          const response = await api.get(path, { params: { ...options.params, Skip: String(skip), Take: String(take) } });
          expect(response.status(), await response.text()).toBe(200);
          const page = (await response.json()) as PagedAnswer<T>;
          found = page.items.find(matches);
          if (found !== undefined) return true;
          if (page.items.length === 0 || skip + page.items.length >= page.total) return false;
        }
      },
      { message: `${options.what ?? 'the row'} in ${path}`, timeout: options.timeout ?? 30_000 },
    )
    .toBe(true);
  return found!;
}

/**
 * On a support screen that shows a paged list (shared/paging.tsx: pages in `?skip=`, "Næste side" while
 * rows follow), the page with the row `matches` finds: opens the screen at `firstPage` (its address without
 * `skip`) and pages on, reading each page's rows from the page's own answer of `endpoint`
 * ('/api/support/reviewqueue'); a walk that reaches the last page without the row starts again from the
 * first page, until it is found or `timeout` ms have passed.
 */
export async function showPageWithRow<T>(
  page: Page,
  firstPage: string,
  endpoint: string,
  matches: (item: T) => boolean,
  options: { timeout?: number; what?: string } = {},
): Promise<void> {
  /** The list's answer to the page, for the page `show` opens. */
  const answerTo = async (show: () => Promise<unknown>): Promise<PagedAnswer<T> & { skip: number }> => {
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === endpoint && response.request().method() === 'GET');
    await show();
    const answer = await answered;
    expect(answer.status(), answer.url()).toBe(200);
    const skip = Number(new URL(answer.url()).searchParams.get('Skip') ?? '0');
    return { skip, ...((await answer.json()) as PagedAnswer<T>) };
  };
  const deadline = Date.now() + (options.timeout ?? 60_000);
  for (;;) {
    // Away from the screen first, so that no answer still on its way to the page shown now (the caller's,
    // or a walk's) is taken for the first page's.
    await page.goto('about:blank');
    let shown = await answerTo(() => page.goto(firstPage));
    while (!shown.items.some(matches) && shown.skip + shown.items.length < shown.total) {
      // The link of the page just answered: the screen renders a page's list only once its answer is in.
      shown = await answerTo(() => page.getByRole('link', { name: 'Næste side' }).click());
    }
    if (shown.items.some(matches)) return;
    if (Date.now() > deadline) throw new Error(`${options.what ?? 'The row'} is not in the list at ${firstPage}`);
  }
}

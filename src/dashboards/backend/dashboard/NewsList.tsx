/**
 * News for advertisers on the dashboard (issue 17): the published news of the advertiser's language,
 * pinned first, then newest. An unread item is marked "New"; opening it shows the text and marks it read
 * for this advertiser (readnews). The text is Markdown rendered by the server with raw HTML off
 * (#lib/markdown.ts), so it is put in the page as it comes.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { formatDate } from '#lib/format.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { dashboardApi, type NewsItem } from './api.ts';

export function NewsList({ news, t }: { news: NewsItem[]; t: TFunction }) {
  const [read, setRead] = useState<ReadonlySet<number>>(() => new Set(news.filter((item) => item.read).map((item) => item.id)));
  const [error, setError] = useState<string | null>(null);

  async function opened(item: NewsItem) {
    if (read.has(item.id)) return;
    setRead((current) => new Set(current).add(item.id));
    try {
      await dashboardApi.readNews(item.id);
    } catch (failure) {
      if (isApiError(failure, 401)) return goToLogin();
      setError(t('common:errors.generic'));
    }
  }

  const unread = news.filter((item) => !read.has(item.id)).length;
  return (
    <section aria-labelledby="dashboard-news-title" data-news>
      <h2 id="dashboard-news-title" className="text-lg font-semibold text-ink">
        {t('dashboard.newsTitle')}
        {unread > 0 ? <span className="ml-2 text-sm font-normal text-slate-700">{t('dashboard.newsUnread', { count: unread })}</span> : null}
      </h2>
      <FormNotice message={error} />
      {news.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('dashboard.noNews')}</p>
      ) : (
        <ul className="mt-3 space-y-3">
          {news.map((item) => (
            <li key={item.id} data-news-item={item.id} data-read={read.has(item.id) ? 'true' : 'false'}>
              <details
                className="group rounded-xl border border-slate-200 bg-white"
                onToggle={(event) => {
                  if (event.currentTarget.open) void opened(item);
                }}
              >
                <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-3 gap-y-1 rounded-xl p-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600">
                  <span className="font-semibold text-ink">{item.title}</span>
                  {read.has(item.id) ? null : (
                    <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white" data-unread>
                      {t('dashboard.newsNew')}
                    </span>
                  )}
                  {item.pinned ? <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950">{t('dashboard.newsPinned')}</span> : null}
                  <span className="text-sm text-slate-600">{formatDate(item.publishedAt)}</span>
                </summary>
                <div className="markdown-text border-t border-slate-200 px-4 pb-4 pt-3 text-slate-800" dangerouslySetInnerHTML={{ __html: item.html }} />
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A public advert whose page is not built yet (approved after the last build): the server answers its
 * canonical URL with the 404 page's HTML, status 200 and `noindex`, and the 404 page loads this module,
 * which reads the advert from the API and renders it exactly as the prebuilt page does. Loaded only on
 * advert paths, so an ordinary not-found page ships no React.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { frontendApi } from '#lib/api/frontend.ts';
import { HttpError, isApiError } from '#lib/api/errors.ts';
import { localizePath, type Locale } from '#lib/i18n/locales.ts';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import AdvertProfile from './AdvertProfile.tsx';
import { advertPageMeta } from './advert-view.ts';
import { initAdvert } from './advert-interactions.ts';

/** Renders advert `id` into `container`; false when the API does not have it (the page stays not-found). */
export async function renderUnbuiltAdvert(container: HTMLElement, id: number, locale: Locale, messages: Messages): Promise<boolean> {
  let profile;
  try {
    profile = await frontendApi.fullProfile(id, locale);
  } catch (error) {
    if (isApiError(error, 404) || (error instanceof HttpError && error.status === 410)) return false;
    throw error;
  }
  const t = messagesT(messages);
  const canonical = localizePath(profile.url, locale);
  if (location.pathname !== canonical) history.replaceState(history.state, '', canonical + location.search);

  const root = createRoot(container);
  flushSync(() =>
    root.render(
      <AdvertProfile profile={profile} locale={locale} messages={messages} />,
    ),
  );

  const meta = advertPageMeta(profile, t);
  const siteName = document.title.split(' | ').pop() ?? '';
  document.title = siteName ? `${meta.title} | ${siteName}` : meta.title;
  document.querySelector('meta[name="description"]')?.setAttribute('content', meta.description);
  // The language picker goes to the advert's twin, not to the front page.
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-locale-link]')) {
    const target = localizePath(profile.url, link.dataset['localeLink'] === 'en' ? 'en' : 'da');
    link.href = target;
    link.dataset['fixedTarget'] = target;
  }
  initAdvert(container.querySelector<HTMLElement>('[data-advert]') ?? container, locale);
  return true;
}

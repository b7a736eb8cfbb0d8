/**
 * The footer (company info from the website config, link lists from the footer info, legal pages) as an
 * HTML string, made once per locale and build: it is the same on every page, and rendering its ~150
 * links for each of tens of thousands of pages was a noticeable part of the build. Values are escaped.
 */
import { getFooterInfo, getLandingPages, getWebsiteConfig, landingSlug } from '#lib/api/build-data.ts';
import type { LandingKind, LinkItem } from '#lib/api/types.ts';
import { localizePath, type Locale } from '#lib/i18n/locales.ts';
import { siteT } from '#lib/i18n/site.ts';
import { escapeHtml as e } from '#lib/html.ts';
import { rankingPageHref } from '#lib/ranking-page.ts';

const built = new Map<Locale, Promise<string>>();

export function siteFooterHtml(locale: Locale): Promise<string> {
  let html = built.get(locale);
  if (!html) {
    html = buildFooter(locale);
    built.set(locale, html);
  }
  return html;
}

async function buildFooter(locale: Locale): Promise<string> {
  const t = siteT(locale);
  const [config, footer] = await Promise.all([getWebsiteConfig(), getFooterInfo()]);

  /** Search links are site paths (Danish); they get the /en/ prefix on English pages. */
  const searchLinks = (items: LinkItem[]) => items.map((item) => ({ href: localizePath(item.url, locale), title: item.title }));

  /**
   * Services and articles come as slugs (or paths) of Danish landing pages: link the page in this locale
   * when it exists there, else the Danish page.
   */
  async function landingLinks(kind: LandingKind, items: LinkItem[]) {
    const here = new Map((await getLandingPages(kind, locale)).map((page) => [landingSlug(page.url), page.title]));
    return items
      .map((item) => ({ slug: landingSlug(item.url), title: item.title }))
      .filter((item) => item.slug)
      .map((item) => ({
        href: localizePath(`/${kind}/${item.slug}/`, here.has(item.slug) ? locale : 'da'),
        title: here.get(item.slug) ?? item.title,
      }));
  }

  const columns = [
    { title: t('footer.escort'), items: searchLinks(footer.escortItems) },
    { title: t('footer.trans'), items: searchLinks(footer.transEscortItems) },
    { title: t('footer.thaimassage'), items: searchLinks(footer.thaimassageItems) },
    { title: t('footer.services'), items: await landingLinks('service', footer.services) },
    { title: t('footer.articles'), items: await landingLinks('artikler', footer.articles) },
    {
      title: t('footer.legal'),
      items: [
        { href: localizePath('/create/', locale), title: t('footer.createAdvert') },
        { href: localizePath('/terms-condition/', locale), title: t('footer.terms') },
        { href: localizePath('/privacy-policy/', locale), title: t('footer.privacy') },
        { href: localizePath('/cookies/', locale), title: t('footer.cookies') },
        { href: rankingPageHref(locale), title: t('footer.ranking') },
      ],
    },
  ].filter((column) => column.items.length > 0);

  const link = (href: string, text: string) => `<a href="${e(href)}" class="hover:text-brand-700 hover:underline">${e(text)}</a>`;
  const nav = columns
    .map(
      (column) =>
        `<nav aria-label="${e(column.title)}"><h2 class="mb-3 text-sm font-semibold text-ink">${e(column.title)}</h2>` +
        `<ul class="space-y-2">${column.items.map((item) => `<li>${link(item.href, item.title)}</li>`).join('')}</ul></nav>`,
    )
    .join('');
  const phoneHref = `tel:${config.supportPhone.replace(/[^+\d]/g, '')}`;
  const company =
    `<section aria-labelledby="footer-company"><h2 id="footer-company" class="mb-3 text-sm font-semibold text-ink">${e(t('footer.company'))}</h2>` +
    '<address class="space-y-1 not-italic">' +
    `<p class="font-medium text-ink">${e(config.companyName)}</p><p>${e(config.companyAddress)}</p><p>${e(config.companyZipCity)}</p>` +
    `<p>${e(t('footer.vat', { vat: config.companyVAT }))}</p>` +
    `<p>${e(t('footer.email'))}: ${link(`mailto:${config.companyEmail}`, config.companyEmail)}</p>` +
    '</address>' +
    `<h3 class="mt-4 mb-1 text-sm font-semibold text-ink">${e(t('footer.support'))}</h3>` +
    `<p>${link(`mailto:${config.supportEmail}`, config.supportEmail)}</p>` +
    `<p>${e(t('footer.phone'))}: ${link(phoneHref, config.supportPhone)}</p>` +
    '</section>';
  return (
    '<footer class="mt-16 border-t border-slate-200 bg-white text-sm text-slate-700">' +
    `<div class="mx-auto grid max-w-[1200px] gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">${nav}${company}</div>` +
    '<div class="border-t border-slate-200"><div class="mx-auto flex max-w-[1200px] flex-col gap-2 px-4 py-4 text-xs text-muted md:flex-row md:justify-between">' +
    `<p>${e(t('footer.adultsOnly'))}</p><p>© ${new Date().getFullYear()} ${e(config.companyName)}</p>` +
    '</div></div></footer>'
  );
}

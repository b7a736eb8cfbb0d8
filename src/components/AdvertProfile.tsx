/**
 * The advert page's content. Rendered to static HTML at build time (no client directive: no JS for it),
 * and rendered in the browser for a public advert whose page is not built yet (see unbuilt-advert.tsx),
 * so both look the same. The few interactive parts (show number, open now, schedule of today) are wired
 * by plain code in advert-interactions.ts, which also loads the report form and the review form on the
 * first click of their buttons (report-dialog.tsx, review-dialog.tsx).
 */
import type { ReactNode } from 'react';
import type { FullProfile } from '#lib/schemas/public-advert.ts';
import { formatDate, formatDkk, maskPhone } from '#lib/format.ts';
import { localizePath, type Locale } from '#lib/i18n/locales.ts';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { KIND_MESSAGE, formatRating } from '#lib/advert-card.ts';
import { scheduleByWeekday } from '#lib/schedule.ts';
import { largestPictureUrl } from '#lib/pictures.ts';
import Picture from './Picture.tsx';
import {
  advertCrumbs,
  averageRating,
  formatDuration,
  locationHref,
  phoneDisplay,
  safeWebsite,
  serviceGroups,
} from './advert-view.ts';

type Props = { profile: FullProfile; locale: Locale; messages: Messages };

const GALLERY_SIZES = '(min-width: 1200px) 340px, (min-width: 1024px) 28vw, (min-width: 768px) 45vw, 85vw';
const card = 'rounded-2xl border border-slate-200 bg-white p-5 md:p-6';
const sectionHeading = 'text-xl font-semibold text-ink';

function Stars({ rating, label }: { rating: number; label: string }) {
  const full = Math.round(rating);
  return (
    <span role="img" aria-label={label} className="text-amber-500">
      {'★'.repeat(full)}
      <span className="text-slate-300">{'★'.repeat(Math.max(0, 5 - full))}</span>
    </span>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-slate-100 py-2 last:border-b-0">
      <dt className="text-muted">{term}</dt>
      <dd className="text-right font-medium text-ink">{children}</dd>
    </div>
  );
}

export default function AdvertProfile({ profile, locale, messages }: Props) {
  const t = messagesT(messages);
  const crumbs = advertCrumbs(profile, locale, t);
  const place = [profile.location.city, profile.location.region].filter(Boolean).join(', ');
  const placeHref = locationHref(profile, locale);
  const website = safeWebsite(profile.website);
  const groups = serviceGroups(profile.services);
  const rating = averageRating(profile.reviews);
  const hasIncallPrices = profile.priceList.some((item) => item.incallPriceOre !== null);
  const hasOutcallPrices = profile.priceList.some((item) => item.outcallPriceOre !== null);
  const hasPriceNotes = profile.priceList.some((item) => item.description);
  const breast = profile.breastType === 1 ? t('advert.breastNatural') : profile.breastType === 2 ? t('advert.breastSilicone') : null;
  const meeting = [profile.incall ? t('advert.incall') : null, profile.outcall ? t('advert.outcall') : null].filter(Boolean).join(' · ');

  return (
    <article data-advert={profile.id} data-advert-url={profile.url} className="space-y-8">
      <nav aria-label={t('landing.breadcrumb')} className="text-sm text-muted">
        <ol className="flex flex-wrap items-center gap-x-1 gap-y-1">
          {crumbs.map((crumb, index) => (
            <li key={crumb.href} className="flex items-center gap-1">
              {index > 0 ? (
                <span aria-hidden="true" className="text-slate-400">
                  /
                </span>
              ) : null}
              {index === crumbs.length - 1 ? (
                <span aria-current="page" className="text-slate-700">
                  {crumb.name}
                </span>
              ) : (
                <a href={crumb.href} className="underline decoration-slate-300 hover:text-brand-700 hover:decoration-brand-700">
                  {crumb.name}
                </a>
              )}
            </li>
          ))}
        </ol>
      </nav>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:grid-rows-[auto_1fr] lg:gap-x-8">
        <div className="min-w-0 space-y-4 lg:col-start-1 lg:row-start-1">
          {profile.pictures.length > 0 ? (
            <div>
              <ul
                aria-label={t('advert.gallery')}
                data-gallery
                data-viewer-label={t('advert.viewerLabel', { name: profile.name })}
                data-viewer-previous={t('advert.viewerPrevious')}
                data-viewer-next={t('advert.viewerNext')}
                data-viewer-close={t('advert.viewerClose')}
                data-viewer-position={t('advert.viewerPosition', { number: '{number}', count: '{count}' })}
                data-viewer-hash={t('advert.pictureHash')}
                className="-mx-4 flex snap-x snap-mandatory gap-2 overflow-x-auto px-4 pb-2 md:mx-0 md:grid md:grid-cols-2 md:gap-3 md:overflow-visible md:px-0 md:pb-0"
              >
                {profile.pictures.map((picture, index) => (
                  <li key={picture.id} className="w-[85%] shrink-0 snap-center md:w-auto">
                    <a
                      href={largestPictureUrl(picture) ?? undefined}
                      data-picture-open={index}
                      aria-label={t('advert.openPicture', { number: index + 1, count: profile.pictures.length })}
                      className="block aspect-[3/4] cursor-zoom-in overflow-hidden rounded-2xl bg-slate-100 focus-visible:outline focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                    >
                      <Picture
                        picture={picture}
                        alt={t('advert.pictureAlt', { name: profile.name, number: index + 1 })}
                        sizes={GALLERY_SIZES}
                        eager={index === 0}
                        className="h-full w-full object-cover"
                      />
                    </a>
                  </li>
                ))}
              </ul>
              {profile.pictures.length > 1 ? (
                <p
                  aria-hidden="true"
                  data-gallery-position
                  className="mt-1 text-center text-sm font-semibold text-slate-700 md:hidden"
                >
                  {t('advert.viewerPosition', { number: 1, count: profile.pictures.length })}
                </p>
              ) : null}
            </div>
          ) : (
            <div className="flex aspect-[3/4] max-h-96 items-center justify-center rounded-2xl bg-slate-100 text-7xl font-semibold text-slate-400" aria-hidden="true">
              {profile.name.slice(0, 1).toUpperCase()}
            </div>
          )}
          {profile.videos.length > 0 ? (
            <section aria-labelledby="videos-heading" className="space-y-3">
              <h2 id="videos-heading" className={sectionHeading}>
                {t('advert.videos')}
              </h2>
              <ul className="grid gap-3 md:grid-cols-2">
                {profile.videos.map((video, index) => (
                  <li key={video.id}>
                    <video
                      controls
                      playsInline
                      preload="none"
                      poster={video.posterUrl ?? undefined}
                      width={video.width ?? 640}
                      height={video.height ?? 360}
                      aria-label={t('advert.videoLabel', { name: profile.name, number: index + 1 })}
                      className="h-auto w-full rounded-2xl bg-slate-900"
                    >
                      <source src={video.url} type="video/mp4" />
                    </video>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>

        <div className="min-w-0 space-y-5 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <header>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{t(KIND_MESSAGE[profile.kind])}</p>
            <h1 className="mt-1 text-3xl font-bold tracking-tight text-ink md:text-4xl">
              {profile.name}
              {profile.age !== null ? <span className="font-normal text-slate-600">, {t('card.age', { age: profile.age })}</span> : null}
            </h1>
            {profile.title ? <p className="mt-2 text-lg text-slate-700">{profile.title}</p> : null}
            <ul className="mt-3 flex flex-wrap gap-2 text-sm">
              {profile.validated ? (
                <li className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-3 py-1 font-medium text-emerald-800" title={t('advert.validatedHelp')}>
                  <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                    <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
                  </svg>
                  {t('card.validated')}
                </li>
              ) : null}
              {rating !== null ? (
                <li className="rounded-full bg-amber-50 px-3 py-1 font-medium text-amber-900">
                  <span aria-hidden="true">★</span> {formatRating(rating, locale)} · {t('card.reviews', { count: profile.reviews.length })}
                </li>
              ) : null}
              <li hidden data-open-now className="rounded-full px-3 py-1 font-medium" data-open-label={t('advert.openNow')} data-closed-label={t('advert.closedNow')} />
            </ul>
          </header>

          <section aria-labelledby="contact-heading" className={card}>
            <h2 id="contact-heading" className="sr-only">
              {t('advert.contact')}
            </h2>
            {profile.phone ? (
              <div data-phone-box data-advert-id={profile.id} data-has-whatsapp={profile.hasWhatsapp ? 'true' : 'false'} className="space-y-3">
                <p className="text-sm text-muted">{t('advert.phone')}</p>
                <div className="flex flex-wrap items-center gap-3">
                  <span data-phone-number className="text-2xl font-semibold tracking-wide text-ink tabular-nums">
                    {phoneDisplay(maskPhone(profile.phone))}
                  </span>
                  <button
                    type="button"
                    data-reveal-phone
                    className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
                  >
                    {t('advert.showNumber')}
                  </button>
                </div>
                <div data-phone-links hidden className="flex flex-wrap gap-2" data-call-label={t('advert.call')} data-whatsapp-label={t('advert.whatsapp')} />
                <p data-phone-error hidden role="alert" className="text-sm text-red-700">
                  {t('errors.generic')}
                </p>
                <p className="text-xs text-muted">{t('advert.mentionSite')}</p>
              </div>
            ) : (
              <p className="text-slate-700">{t('advert.noPhone')}</p>
            )}
            {website ? (
              <p className="mt-4 border-t border-slate-100 pt-4 text-sm">
                <span className="text-muted">{t('advert.website')}: </span>
                <a href={website.href} rel="nofollow noopener ugc" target="_blank" className="font-medium break-all text-brand-700 underline">
                  {website.label}
                </a>
              </p>
            ) : null}
          </section>

          <section aria-labelledby="facts-heading" className={card}>
            <h2 id="facts-heading" className={sectionHeading}>
              {t('advert.facts')}
            </h2>
            <dl className="mt-3 text-sm">
              {place ? (
                <Fact term={t('advert.location')}>
                  {placeHref ? (
                    <a href={placeHref} className="text-brand-700 underline">
                      {place}
                    </a>
                  ) : (
                    place
                  )}
                </Fact>
              ) : null}
              {meeting ? <Fact term={t('advert.meeting')}>{meeting}</Fact> : null}
              {profile.age !== null ? <Fact term={t('advert.age')}>{t('card.age', { age: profile.age })}</Fact> : null}
              {profile.height !== null ? <Fact term={t('advert.height')}>{profile.height} cm</Fact> : null}
              {profile.weight !== null ? <Fact term={t('advert.weight')}>{profile.weight} kg</Fact> : null}
              {breast ? <Fact term={t('advert.breasts')}>{breast}</Fact> : null}
              {profile.nationality ? <Fact term={t('advert.nationality')}>{profile.nationality.name}</Fact> : null}
              {profile.languages.length > 0 ? (
                <Fact term={t('advert.languages')}>{profile.languages.map((language) => language.name).join(', ')}</Fact>
              ) : null}
            </dl>
          </section>
        </div>
        {profile.introduction || profile.description ? (
          <section aria-labelledby="about-heading" className={`${card} lg:col-start-1 lg:row-start-2 lg:self-start`}>
            <h2 id="about-heading" className={sectionHeading}>
              {t('advert.about', { name: profile.name })}
            </h2>
            {profile.introduction ? <p className="mt-3 text-lg font-medium text-slate-800">{profile.introduction}</p> : null}
            {profile.description
              ? profile.description
                  .split(/\n{2,}/)
                  .filter((paragraph) => paragraph.trim())
                  .map((paragraph, index) => (
                    <p key={index} className="mt-3 whitespace-pre-line text-slate-800">
                      {paragraph.trim()}
                    </p>
                  ))
              : null}
          </section>
        ) : null}
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        {groups.length > 0 ? (
          <section aria-labelledby="services-heading" className={card}>
            <h2 id="services-heading" className={sectionHeading}>
              {t('advert.services')}
            </h2>
            {groups.map((group) => (
              <div key={group.type} className="mt-4">
                <h3 className="text-sm font-semibold text-muted">{t(`advert.serviceType${group.type}`)}</h3>
                <ul className="mt-2 flex flex-wrap gap-1.5">
                  {group.services.map((service) => (
                    <li key={service.id} className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-800">
                      {service.name}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
        ) : null}

        <section aria-labelledby="prices-heading" className={card}>
          <h2 id="prices-heading" className={sectionHeading}>
            {t('advert.prices')}
          </h2>
          {profile.priceList.length > 0 ? (
            <table className="mt-3 w-full text-sm">
              <caption className="sr-only">{t('advert.prices')}</caption>
              <thead>
                <tr className="border-b border-slate-200 text-left text-muted">
                  <th scope="col" className="py-2 pr-2 font-medium">
                    {t('advert.duration')}
                  </th>
                  {hasIncallPrices ? (
                    <th scope="col" className="py-2 pr-2 text-right font-medium">
                      {t('advert.incall')}
                    </th>
                  ) : null}
                  {hasOutcallPrices ? (
                    <th scope="col" className="py-2 text-right font-medium">
                      {t('advert.outcall')}
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {profile.priceList.map((item) => (
                  <tr key={item.id} className="border-b border-slate-100 last:border-b-0">
                    <th scope="row" className="py-2 pr-2 text-left font-medium text-ink">
                      {formatDuration(item.durationMinutes, t)}
                      {hasPriceNotes && item.description ? <span className="block text-xs font-normal text-muted">{item.description}</span> : null}
                    </th>
                    {hasIncallPrices ? (
                      <td className="py-2 pr-2 text-right whitespace-nowrap tabular-nums">{item.incallPriceOre === null ? '–' : formatDkk(item.incallPriceOre)}</td>
                    ) : null}
                    {hasOutcallPrices ? (
                      <td className="py-2 text-right whitespace-nowrap tabular-nums">{item.outcallPriceOre === null ? '–' : formatDkk(item.outcallPriceOre)}</td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="mt-3 text-slate-700">{t('advert.noPrices')}</p>
          )}
          {profile.extraPrices.length > 0 ? (
            <>
              <h3 className="mt-5 text-sm font-semibold text-muted">{t('advert.extraPrices')}</h3>
              <ul className="mt-2 text-sm">
                {profile.extraPrices.map((item) => (
                  <li key={item.id} className="flex justify-between gap-4 border-b border-slate-100 py-2 last:border-b-0">
                    <span>{item.description}</span>
                    <span className="whitespace-nowrap tabular-nums">{formatDkk(item.priceOre)}</span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <p className="mt-4 text-xs text-muted">{t('advert.vat')}</p>
          {profile.paymentOptions.length > 0 ? (
            <>
              <h3 className="mt-5 text-sm font-semibold text-muted">{t('advert.payment')}</h3>
              <ul className="mt-2 flex flex-wrap gap-1.5">
                {profile.paymentOptions.map((option) => (
                  <li key={option} className="rounded-full border border-slate-200 px-3 py-1 text-sm text-slate-800">
                    {t(`advert.payment_${option}`)}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>

        <section aria-labelledby="schedule-heading" className={card}>
          <h2 id="schedule-heading" className={sectionHeading}>
            {t('advert.schedule')}
          </h2>
          {profile.schedule.length > 0 ? (
            <table className="mt-3 w-full text-sm" data-schedule={JSON.stringify(profile.schedule)}>
              <caption className="sr-only">{t('advert.schedule')}</caption>
              <tbody>
                {scheduleByWeekday(profile.schedule).map(([weekday, entries]) => (
                  <tr key={weekday} data-weekday={weekday} className="border-b border-slate-100 last:border-b-0">
                    <th scope="row" className="py-2 pr-2 text-left font-medium text-ink">
                      {t(`advert.weekday${weekday}`)}
                    </th>
                    <td className="py-2 text-right tabular-nums">
                      {entries.length > 0 ? entries.map((entry) => `${entry.from}–${entry.to}`).join(', ') : <span className="text-muted">{t('advert.closed')}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="mt-3 text-slate-700">{t('advert.noSchedule')}</p>
          )}
          <p className="mt-3 text-xs text-muted">{t('advert.scheduleNote')}</p>
        </section>

        <section aria-labelledby="reviews-heading" className={card}>
          <h2 id="reviews-heading" className={sectionHeading}>
            {t('advert.reviews')}
          </h2>
          {profile.reviews.length > 0 ? (
            <ul className="mt-3 space-y-4">
              {profile.reviews.map((review) => (
                <li key={review.id} className="border-b border-slate-100 pb-4 last:border-b-0 last:pb-0">
                  <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                    <Stars rating={review.rating} label={t('advert.rating', { rating: review.rating })} />
                    <span className="font-medium text-ink">{review.authorName}</span>
                    <span className="text-muted">{formatDate(review.createdAt)}</span>
                  </p>
                  <p className="mt-1 text-slate-800">{review.text}</p>
                  {review.reply ? (
                    <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
                      <span className="font-medium">{t('advert.reply', { name: profile.name })}</span> {review.reply}
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-3 text-slate-700">{t('advert.noReviews')}</p>
          )}
          <div className="mt-4 border-t border-slate-100 pt-4">
            <p className="text-sm text-slate-700">{t('advert.reviewsNote')}</p>
            <button
              type="button"
              data-review-open
              data-advert-name={profile.name}
              aria-haspopup="dialog"
              aria-expanded="false"
              className="mt-3 inline-flex min-h-11 items-center gap-2 rounded-lg border border-brand-700 bg-white px-5 font-semibold text-brand-800 hover:bg-brand-50"
            >
              <span aria-hidden="true">★</span>
              {t('advert.writeReview')}
            </button>
            <div data-review-root></div>
            <p data-review-error hidden role="alert" className="mt-2 text-sm text-red-700">
              {t('errors.generic')}
            </p>
          </div>
        </section>
      </div>

      <section aria-labelledby="report-heading" className="rounded-2xl border border-amber-200 bg-amber-50 p-5 md:p-6">
        <h2 id="report-heading" className="text-lg font-semibold text-ink">
          {t('advert.reportHeading')}
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-slate-800">{t('advert.reportText')}</p>
        <div className="mt-3">
          <button
            type="button"
            data-report-open
            aria-haspopup="dialog"
            aria-expanded="false"
            className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-amber-700 bg-white px-5 font-semibold text-amber-900 hover:bg-amber-100"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M5 21V4m0 0h11l-2 4 2 4H5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {t('report.open')}
          </button>
          <div data-report-root></div>
          <p data-report-error hidden role="alert" className="mt-2 text-sm text-red-700">
            {t('errors.generic')}
          </p>
        </div>
      </section>

      <p className="text-xs text-muted">
        {t('advert.updated', { date: formatDate(profile.updatedAt) })} ·{' '}
        <a href={localizePath('/terms-condition/', locale)} className="underline">
          {t('advert.terms')}
        </a>
      </p>
    </article>
  );
}

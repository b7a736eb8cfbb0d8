/**
 * Media of adverts/{id}/media/{current|deleted}/: the advert's pictures and videos in every moderation state
 * (GET currentmedia), or the deleted ones (GET deletedmedia) with their files while they still exist.
 */
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import { formatDateTime } from '#lib/format.ts';
import type { AdvertMedia, AdvertProfile, SupportPicture, SupportVideo } from '#lib/schemas/support-adverts.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { supportRouter } from '../routes.ts';
import { MEDIA_SUBSECTIONS, SectionData, advertHref, type MediaSubsection } from './advert-sections.tsx';

export function MediaSection({ t, advert, subsection }: { t: TFunction; advert: AdvertProfile; subsection: MediaSubsection }) {
  return (
    <section aria-labelledby="advert-media">
      <h2 id="advert-media" className="text-lg font-semibold text-ink">
        {t(`advert.media.${subsection}Title`)}
      </h2>
      <nav aria-label={t('advert.media.which')} className="mt-3">
        <ul className="flex flex-wrap gap-2">
          {MEDIA_SUBSECTIONS.map((value) => (
            <li key={value}>
              <AppLink
                router={supportRouter}
                href={advertHref(advert.id, 'media', value)}
                aria-current={value === subsection ? 'page' : undefined}
                className={`inline-flex min-h-10 items-center rounded-lg border px-3 text-sm font-medium ${value === subsection ? 'border-brand-700 bg-brand-50 font-semibold' : 'border-slate-300 bg-white'}`}
              >
                {t(`advert.media.${value}`)}
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
      <SectionData
        load={(signal) => (subsection === 'deleted' ? supportAdvertsApi.deletedMedia(advert.id, signal) : supportAdvertsApi.currentMedia(advert.id, signal))}
        loadError={t('advert.loadSectionError')}
      >
        {(media) => <MediaLists t={t} media={media} subsection={subsection} />}
      </SectionData>
    </section>
  );
}

function MediaLists({ t, media, subsection }: { t: TFunction; media: AdvertMedia; subsection: MediaSubsection }) {
  return (
    <div className="mt-4 space-y-6">
      <div>
        <h3 className="font-semibold text-ink">{t('advert.media.pictures', { count: media.pictures.length })}</h3>
        {media.pictures.length === 0 ? (
          <p className="mt-2 text-slate-700">{t(`advert.media.noPictures.${subsection}`)}</p>
        ) : (
          <ul className="mt-2 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {media.pictures.map((picture) => (
              <PictureCard key={picture.id} t={t} picture={picture} />
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="font-semibold text-ink">{t('advert.media.videos', { count: media.videos.length })}</h3>
        {media.videos.length === 0 ? (
          <p className="mt-2 text-slate-700">{t(`advert.media.noVideos.${subsection}`)}</p>
        ) : (
          <ul className="mt-2 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {media.videos.map((video) => (
              <VideoCard key={video.id} t={t} video={video} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function MediaFacts({ t, item }: { t: TFunction; item: SupportPicture | SupportVideo }) {
  return (
    <dl className="mt-2 space-y-1 text-sm text-slate-800">
      <div>
        <dt className="inline font-semibold">{t('advert.media.moderation')}: </dt>
        <dd className="inline">{t(`advert.media.moderationStates.${item.moderation}`)}</dd>
      </div>
      <div>
        <dt className="inline font-semibold">{t('advert.media.online')}: </dt>
        <dd className="inline">{item.isOnline ? t('form.yes') : t('form.no')}</dd>
      </div>
      {item.declineReason ? (
        <div>
          <dt className="inline font-semibold">{t('advert.media.declineReason')}: </dt>
          <dd className="inline">{item.declineReason}</dd>
        </div>
      ) : null}
      <div>
        <dt className="inline font-semibold">{t('advert.media.uploaded')}: </dt>
        <dd className="inline">{formatDateTime(item.createdAt)}</dd>
      </div>
      {item.deletedAt ? (
        <div>
          <dt className="inline font-semibold">{t('advert.media.deletedAt')}: </dt>
          <dd className="inline">{formatDateTime(item.deletedAt)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function PictureCard({ t, picture }: { t: TFunction; picture: SupportPicture }) {
  const small = picture.variants[0];
  const large = picture.variants.at(-1);
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-3" data-picture={picture.id}>
      {small && large ? (
        <a href={large.url} target="_blank" rel="noopener">
          <img src={small.url} alt={t('advert.media.pictureAlt', { id: picture.id })} width={small.width} height={small.height} loading="lazy" className="h-48 w-full rounded-lg bg-slate-100 object-contain" />
        </a>
      ) : (
        <p className="flex h-48 items-center justify-center rounded-lg bg-slate-100 p-3 text-center text-sm text-slate-700">{t('advert.media.filesGone')}</p>
      )}
      <p className="mt-2 font-medium text-ink">
        {t('advert.media.pictureAlt', { id: picture.id })}
        {picture.isPrimary ? ` · ${t('advert.media.primary')}` : ''}
      </p>
      <MediaFacts t={t} item={picture} />
    </li>
  );
}

function VideoCard({ t, video }: { t: TFunction; video: SupportVideo }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-3" data-video={video.id}>
      {video.videoUrl ? (
        <video controls preload="none" poster={video.posterUrl ?? undefined} className="h-48 w-full rounded-lg bg-slate-900" aria-label={t('advert.media.videoLabel', { id: video.id })}>
          <source src={video.videoUrl} type="video/mp4" />
        </video>
      ) : video.posterUrl ? (
        <img src={video.posterUrl} alt={t('advert.media.videoLabel', { id: video.id })} className="h-48 w-full rounded-lg bg-slate-100 object-contain" />
      ) : (
        <p className="flex h-48 items-center justify-center rounded-lg bg-slate-100 p-3 text-center text-sm text-slate-700">
          {video.filesExist ? t(`advert.media.processing.${video.processing}`) : t('advert.media.filesGone')}
        </p>
      )}
      <p className="mt-2 font-medium text-ink">{t('advert.media.videoLabel', { id: video.id })}</p>
      <MediaFacts t={t} item={video} />
    </li>
  );
}

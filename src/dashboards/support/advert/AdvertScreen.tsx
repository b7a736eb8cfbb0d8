/**
 * /support/adverts/{id}/{section?}/{subsection?}/ (Support): one advert with everything support needs, in
 * sections (tabs that are links, so reload and back keep them): the overview (GET profile: the advert, its
 * account, status and the lock or unlock with a reason), sign-ins (loginhistories), history (the audit log:
 * actionhistories), media (currentmedia, deletedmedia), messages to the advertiser (advertmessages), reviews
 * (advertreviews) and reports (advertreports).
 */
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import type { AdvertProfile } from '#lib/schemas/support-adverts.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { ItemScreen, itemLoader } from '../item-screen.tsx';
import { SECTIONS, advertHref, type Section } from './advert-sections.tsx';
import { OverviewSection } from './OverviewSection.tsx';
import { SignInsSection } from './SignInsSection.tsx';
import { HistorySection } from './HistorySection.tsx';
import { MediaSection } from './MediaSection.tsx';
import { MessagesSection } from './MessagesSection.tsx';
import { ReviewsSection } from './ReviewsSection.tsx';
import { ReportsSection } from './ReportsSection.tsx';
import { skipOf } from '../../shared/paging.tsx';

export default function AdvertScreen({ params, search }: SupportScreenProps) {
  const id = params['id'] ?? '';
  const section = (SECTIONS as readonly string[]).includes(params['section'] ?? '') ? ((params['section'] ?? '') as Section) : null;
  const skip = skipOf(search);
  return <AdvertLoader key={id} id={id} section={section} subsection={params['subsection'] ?? ''} skip={skip} />;
}

function AdvertLoader({ id, section, subsection, skip }: { id: string; section: Section | null; subsection: string; skip: number }) {
  const t = useAppT(supportI18n);
  const { state, setData, reload } = useScreenData<AdvertProfile | 'notFound'>(itemLoader(id, (advertId, signal) => supportAdvertsApi.profile(advertId, signal)));
  const advert = state.status === 'ready' && state.data !== 'notFound' ? state.data : null;
  return (
    <ItemScreen
      width="max-w-5xl"
      catalog="advert"
      list='adverts'
      title={advert ? t('advert.title', { name: advert.name, id: advert.id }) : t('screens.advert')}
      state={state}
      onRetry={reload}
    >
      {(data) =>
        section === null ? (
          <p className="mt-6 text-slate-700">{t('advert.notFound')}</p>
        ) : (
          <>
            <p className="mt-1 text-slate-700" data-advert-status={data.status}>
              {t(`moderation.advertStatus.${data.status}`, { defaultValue: String(data.status) })}
            </p>
            <SectionTabs t={t} advert={data} current={section} />
            <div className="mt-6">
              {section === '' ? <OverviewSection t={t} advert={data} onChanged={setData} /> : null}
              {section === 'sign-ins' ? <SignInsSection key={skip} t={t} advert={data} skip={skip} /> : null}
              {section === 'history' ? <HistorySection key={skip} t={t} advert={data} skip={skip} /> : null}
              {section === 'media' ? <MediaSection key={subsection} t={t} advert={data} subsection={subsection === 'deleted' ? 'deleted' : 'current'} /> : null}
              {section === 'messages' ? <MessagesSection key={skip} t={t} advert={data} skip={skip} /> : null}
              {section === 'reviews' ? <ReviewsSection t={t} advert={data} /> : null}
              {section === 'reports' ? <ReportsSection t={t} advert={data} /> : null}
            </div>
          </>
        )
      }
    </ItemScreen>
  );
}

function SectionTabs({ t, advert, current }: { t: TFunction; advert: AdvertProfile; current: Section }) {
  return (
    <nav aria-label={t('advert.sections')} className="mt-4 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-1">
        {SECTIONS.map((section) => {
          const active = section === current;
          return (
            <li key={section || 'overview'}>
              <AppLink
                router={supportRouter}
                href={advertHref(advert.id, section)}
                aria-current={active ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center border-b-2 px-3 text-sm font-medium ${active ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-700 hover:text-ink'}`}
              >
                {t(`advert.tabs.${section || 'overview'}`)}
              </AppLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

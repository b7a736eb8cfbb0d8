/**
 * /backend/pictures/ (spec §2, §7 media): add pictures (several at once, progress and a result per file),
 * and manage the list in the order the advert shows it: the moderation badge (pending, approved, declined
 * with support's reason), the primary picture, online/offline, reorder by drag or with the move buttons
 * (announced), delete after a confirmation.
 */
import { useRef } from 'react';
import type { TFunction } from 'i18next';
import type { BackendPicture, PictureRefusal } from '#lib/schemas/media.ts';
import Picture from '../../../components/Picture.tsx';
import { PictureUpload, type PictureUploadTexts } from '../../../components/media/PictureUpload.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { smallButton } from '../../shared/form-text.ts';
import { backendI18n } from '../i18n.ts';
import { MediaList } from '../media/MediaList.tsx';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { picturesApi } from './api.ts';

export default function PicturesScreen() {
  const t = useAppT(backendI18n);
  const { state, setData, reload } = useScreenData(picturesApi.load);
  return (
    <ScreenShell id="pictures-title" title={t('screens.pictures')} intro={t('pictures.intro')} state={state} loadError={t('pictures.loadError')} onRetry={reload}>
      {(pictures) => <PicturesManager pictures={pictures} onChange={setData} />}
    </ScreenShell>
  );
}

function uploadTexts(t: TFunction, prefix: string): PictureUploadTexts {
  return {
    choose: t(`${prefix}.choose`),
    chooseHint: t(`${prefix}.chooseHint`),
    uploads: t(`${prefix}.uploads`),
    progress: (file) => t(`${prefix}.progress`, { file }),
    waiting: t(`${prefix}.waiting`),
    added: t(`${prefix}.added`),
    refusal: (reason: PictureRefusal) => t(`common:pictureRefusal.${reason}`),
  };
}

function PicturesManager({ pictures, onChange }: { pictures: BackendPicture[]; onChange: (pictures: BackendPicture[]) => void }) {
  const t = useAppT(backendI18n);
  /** Counts the changes: the list loaded after a batch of uploads must not undo a change made meanwhile (e.g. a move). */
  const changes = useRef(0);
  /** The list as last rendered: an upload that ends later adds to it, not to the list of when it started. */
  const latest = useRef(pictures);
  latest.current = pictures;
  const change = (next: BackendPicture[]) => {
    latest.current = next;
    changes.current += 1;
    onChange(next);
  };
  function reloadAfterUploads() {
    const at = changes.current;
    void picturesApi.load().then((list) => {
      if (changes.current === at) change(list);
    }, () => undefined);
  }
  return (
    <div className="mt-6 space-y-8">
      <section aria-labelledby="pictures-add-title">
        <h2 id="pictures-add-title" className="text-xl font-semibold text-ink">
          {t('pictures.addTitle')}
        </h2>
        <p className="mt-1 mb-3 max-w-prose text-sm text-slate-700">{t('pictures.rules')}</p>
        <PictureUpload
          id="pictures"
          texts={uploadTexts(t, 'pictures')}
          onUnauthorized={goToLogin}
          send={(file, onProgress) => picturesApi.upload(file, { onProgress })}
          onAdded={(picture) => change([...latest.current.filter((p) => p.id !== picture.id), picture])}
          onDone={reloadAfterUploads}
        />
      </section>

      <MediaList
        kind="pictures"
        items={pictures}
        onChange={change}
        api={picturesApi}
        dataOf={(picture) => ({ 'data-picture-id': picture.id })}
        media={(picture, label) => (
          <div className="h-24 w-24 shrink-0 overflow-hidden rounded-lg bg-slate-100">
            <Picture picture={picture} alt={label} sizes="96px" className="h-24 w-24 object-cover" />
          </div>
        )}
        nameExtra={(picture) =>
          picture.isPrimary ? (
            <span data-testid="primary-marker" className="ml-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">
              {t('pictures.primary')}
            </span>
          ) : null
        }
        actions={(picture, { label, busy, act }) =>
          picture.isPrimary ? null : (
            <button
              type="button"
              className={smallButton}
              disabled={busy}
              aria-label={t('pictures.makePrimaryOf', { item: label })}
              onClick={() => void act(() => picturesApi.setPrimary(picture.id), t('pictures.primarySet'))}
            >
              {t('pictures.makePrimary')}
            </button>
          )
        }
      />
    </div>
  );
}

/**
 * The optional pictures of /create: added before the account exists (profilepictureuploadertemp, which
 * ties them to this browser with an HttpOnly cookie) and removed again (removetempimage); createprofile
 * attaches them to the new advert. Each file has its own progress and result (../media/PictureUpload.tsx).
 */
import { useState } from 'react';
import { frontendApi } from '#lib/api/frontend.ts';
import { uploadPicture } from '#lib/api/upload.ts';
import type { BackendPicture } from '#lib/schemas/media.ts';
import Picture from '../Picture.tsx';
import { PictureUpload } from '../media/PictureUpload.tsx';
import type { AccountTexts } from './texts.ts';

export function CreatePictures({ texts }: { texts: AccountTexts }) {
  const { t } = texts;
  const [pictures, setPictures] = useState<BackendPicture[]>([]);
  const [status, setStatus] = useState('');
  const label = (index: number) => t('create.pictureLabel', { n: index + 1 });

  async function remove(picture: BackendPicture) {
    try {
      await frontendApi.client.post('removetempimage', { json: { PictureId: picture.id } });
      setPictures((list) => list.filter((p) => p.id !== picture.id));
      setStatus(t('create.pictureRemoved'));
    } catch {
      setStatus(t('errors.generic'));
    }
  }

  return (
    <section aria-labelledby="create-pictures-heading" className="space-y-4">
      <h2 id="create-pictures-heading" className="text-lg font-semibold text-ink">
        {t('create.picturesHeading')}
      </h2>
      <p className="text-sm text-slate-700">{t('create.picturesIntro')}</p>
      <PictureUpload
        id="create-pictures"
        texts={{
          choose: t('create.picturesChoose'),
          chooseHint: t('create.picturesChooseHint'),
          uploads: t('create.picturesUploads'),
          progress: (file) => t('create.picturesProgress', { file }),
          waiting: t('create.picturesWaiting'),
          added: t('create.picturesAdded'),
          refusal: (reason) => t(`pictureRefusal.${reason}`),
        }}
        onUnauthorized={() => undefined}
        send={(file, onProgress) => uploadPicture('frontend', 'profilepictureuploadertemp', file, { onProgress })}
        onAdded={(picture) => setPictures((list) => [...list.filter((p) => p.id !== picture.id), picture])}
      />
      <p className="sr-only" aria-live="polite">
        {status}
      </p>
      {pictures.length > 0 ? (
        <ul aria-label={t('create.picturesList')} className="flex flex-wrap gap-3" data-testid="create-pictures-list">
          {pictures.map((picture, index) => (
            <li key={picture.id} data-picture-id={picture.id} className="w-28 space-y-1">
              <div className="h-28 w-28 overflow-hidden rounded-lg bg-slate-100">
                <Picture picture={picture} alt={label(index)} sizes="112px" className="h-28 w-28 object-cover" />
              </div>
              <button
                type="button"
                onClick={() => void remove(picture)}
                aria-label={t('create.pictureRemove', { item: label(index) })}
                className="min-h-10 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm font-medium text-ink hover:bg-slate-50"
              >
                {t('create.pictureRemoveButton')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

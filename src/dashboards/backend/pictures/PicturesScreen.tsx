/**
 * /backend/pictures/ (spec §2, §7 media): add pictures (several at once, progress and a result per file),
 * and manage the list in the order the advert shows it: the moderation badge (pending, approved, declined
 * with support's reason), the primary picture, online/offline, reorder by drag or with the move buttons
 * (announced), delete after a confirmation.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import type { BackendPicture, PictureRefusal } from '#lib/schemas/media.ts';
import { toast } from '#lib/stores/toasts.ts';
import Picture from '../../../components/Picture.tsx';
import { PictureUpload, type PictureUploadTexts } from '../../../components/media/PictureUpload.tsx';
import { ReorderStatus, useReorder } from '../../shared/use-reorder.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { ConfirmDialog } from '../close-advert/ConfirmDialog.tsx';
import { reportFailure, smallButton } from '../form-text.ts';
import { backendI18n } from '../i18n.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { goToLogin } from '../screen-props.ts';
import { ModerationBadge } from './ModerationBadge.tsx';
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
  const [confirming, setConfirming] = useState<BackendPicture | null>(null);
  const [busy, setBusy] = useState(false);
  const label = (picture: BackendPicture) => t('pictures.label', { n: pictures.findIndex((p) => p.id === picture.id) + 1 });

  async function act(call: () => Promise<BackendPicture[]>, done?: string, previous?: BackendPicture[]) {
    setBusy(true);
    try {
      onChange(await call());
      if (done) toast({ title: done, variant: 'success' });
    } catch (error) {
      if (previous) onChange(previous);
      reportFailure(t, error);
    } finally {
      setBusy(false);
    }
  }

  const reorder = useReorder({
    items: pictures,
    idOf: (picture) => picture.id,
    idPrefix: 'picture',
    announce: (_moved, position, count) => t('pictures.moved', { position, count }),
    onReorder: (next) => {
      const previous = pictures;
      onChange(next);
      void act(() => picturesApi.reorder(next.map((p) => p.id)), undefined, previous);
    },
  });

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
          onAdded={(picture) => onChange([...pictures.filter((p) => p.id !== picture.id), picture])}
          onDone={() => void picturesApi.load().then(onChange, () => undefined)}
        />
      </section>

      <section aria-labelledby="pictures-list-title">
        <h2 id="pictures-list-title" className="text-xl font-semibold text-ink">
          {t('pictures.listTitle')}
        </h2>
        <p className="mt-1 max-w-prose text-sm text-slate-700">{t('pictures.listHelp')}</p>
        <ReorderStatus text={reorder.announcement} />
        {pictures.length === 0 ? (
          <p className="mt-4 text-slate-700" data-testid="pictures-empty">
            {t('pictures.empty')}
          </p>
        ) : (
          <ol className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" aria-label={t('pictures.listTitle')}>
            {pictures.map((picture, index) => (
              <li
                key={picture.id}
                data-picture-id={picture.id}
                {...reorder.itemProps(picture)}
                className={`flex flex-wrap items-center gap-3 p-3 ${reorder.itemClass(picture)}`}
              >
                <span aria-hidden="true" className="cursor-grab select-none px-1 text-xl text-slate-500" title={t('pictures.dragHint')}>
                  ⠿
                </span>
                <div className="h-24 w-24 shrink-0 overflow-hidden rounded-lg bg-slate-100">
                  <Picture picture={picture} alt={label(picture)} sizes="96px" className="h-24 w-24 object-cover" />
                </div>
                <div className="min-w-40 flex-1 space-y-1">
                  <p className="font-semibold text-ink">
                    {label(picture)}
                    {picture.isPrimary ? (
                      <span data-testid="primary-marker" className="ml-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">
                        {t('pictures.primary')}
                      </span>
                    ) : null}
                  </p>
                  <ModerationBadge moderation={picture.moderation} reason={picture.declineReason} />
                  <p className="text-sm text-slate-700">{t('pictures.uploadedOn', { date: picture.uploadedOn })}</p>
                  <label className="flex min-h-10 items-center gap-2 text-sm text-ink">
                    <input
                      type="checkbox"
                      className="h-5 w-5"
                      checked={picture.isOnline}
                      disabled={busy}
                      onChange={(event) => {
                        const online = event.currentTarget.checked;
                        const previous = pictures;
                        onChange(pictures.map((p) => (p.id === picture.id ? { ...p, isOnline: online } : p)));
                        void act(() => picturesApi.setOnline(picture.id, online), online ? t('pictures.nowOnline') : t('pictures.nowOffline'), previous);
                      }}
                    />
                    {t('pictures.online')}
                  </label>
                </div>
                <div className="flex flex-wrap gap-2">
                  <button type="button" {...reorder.moveButtonProps(picture, index, -1)} className={smallButton} aria-label={t('pictures.moveUp', { item: label(picture) })}>
                    ↑
                  </button>
                  <button type="button" {...reorder.moveButtonProps(picture, index, 1)} className={smallButton} aria-label={t('pictures.moveDown', { item: label(picture) })}>
                    ↓
                  </button>
                  {picture.isPrimary ? null : (
                    <button
                      type="button"
                      className={smallButton}
                      disabled={busy}
                      aria-label={t('pictures.makePrimaryOf', { item: label(picture) })}
                      onClick={() => void act(() => picturesApi.setPrimary(picture.id), t('pictures.primarySet'))}
                    >
                      {t('pictures.makePrimary')}
                    </button>
                  )}
                  <button type="button" className={smallButton} disabled={busy} aria-label={t('pictures.deleteOf', { item: label(picture) })} onClick={() => setConfirming(picture)}>
                    {t('form.delete')}
                  </button>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
      <ConfirmDialog
        open={confirming !== null}
        title={t('pictures.confirmTitle')}
        body={t('pictures.confirmBody')}
        confirmLabel={t('pictures.confirmDelete')}
        cancelLabel={t('form.cancel')}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const picture = confirming;
          setConfirming(null);
          if (picture) void act(() => picturesApi.remove(picture.id), t('pictures.deleted'));
        }}
      />
    </div>
  );
}

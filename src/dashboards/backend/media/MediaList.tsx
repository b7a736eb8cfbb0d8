/**
 * The list of the advertiser's pictures or videos (spec §7 media), in the order the advert shows them:
 * each item's picture or player, name, moderation badge, upload date and online checkbox; reorder by drag
 * or with the move buttons (announced), delete after a confirmation. Every change is saved at once (the
 * screen shows it first and restores the old list if the call fails). What differs between the two
 * screens comes in as slots: the media itself, extra words after the name and the date, extra buttons.
 */
import { useState, type ReactNode } from 'react';
import type { ModerationWord } from '#lib/schemas/media.ts';
import { toast } from '#lib/stores/toasts.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { useReorder } from '../../shared/use-reorder.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { ReorderList } from '../ReorderList.tsx';
import { reportFailure, smallButton } from '../../shared/form-text.ts';
import { backendI18n } from '../i18n.ts';
import { ModerationBadge } from './ModerationBadge.tsx';

export type MediaItem = { id: number; isOnline: boolean; moderation: ModerationWord; declineReason: string | null; uploadedOn: string };

/** The calls of the list; each answers the whole list as it is now. */
export type MediaListApi<T> = {
  reorder: (ids: number[]) => Promise<T[]>;
  setOnline: (id: number, online: boolean) => Promise<T[]>;
  remove: (id: number) => Promise<T[]>;
};

/** Runs a call that answers the new list (busy meanwhile; a toast when done; the old list back on failure). */
export type MediaAct<T> = (call: () => Promise<T[]>, done?: string, previous?: T[]) => Promise<void>;

type Props<T extends MediaItem> = {
  /** The screen: its i18n keys (`pictures.listTitle`, ...), test ids and element ids start with it. */
  kind: 'pictures' | 'videos';
  items: T[];
  onChange: (items: T[]) => void;
  api: MediaListApi<T>;
  /** The list item's data attributes (e.g. data-picture-id). */
  dataOf: (item: T) => Record<`data-${string}`, string | number>;
  align?: 'center' | 'start';
  /** The picture or the player, with its box. */
  media: (item: T, label: string) => ReactNode;
  /** After the item's name (e.g. the primary marker). */
  nameExtra?: (item: T) => ReactNode;
  /** After the upload date (e.g. the duration). */
  dateExtra?: (item: T) => ReactNode;
  /** Buttons between move down and delete (e.g. make primary). */
  actions?: (item: T, tools: { label: string; busy: boolean; act: MediaAct<T> }) => ReactNode;
};

export function MediaList<T extends MediaItem>({ kind, items, onChange, api, dataOf, align, media, nameExtra, dateExtra, actions }: Props<T>) {
  const t = useAppT(backendI18n);
  const [confirming, setConfirming] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const label = (item: T) => t(`${kind}.label`, { n: items.findIndex((i) => i.id === item.id) + 1 });

  const act: MediaAct<T> = async (call, done, previous) => {
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
  };

  const reorder = useReorder({
    items,
    idOf: (item) => item.id,
    idPrefix: kind === 'pictures' ? 'picture' : 'video',
    announce: (_moved, position, count) => t(`${kind}.moved`, { position, count }),
    onReorder: (next) => {
      const previous = items;
      onChange(next);
      void act(() => api.reorder(next.map((i) => i.id)), undefined, previous);
    },
  });

  return (
    <>
      <ReorderList
        titleId={`${kind}-list-title`}
        texts={{
          title: t(`${kind}.listTitle`),
          help: t(`${kind}.listHelp`),
          empty: t(`${kind}.empty`),
          dragHint: t(`${kind}.dragHint`),
          moveUp: (item) => t(`${kind}.moveUp`, { item }),
          moveDown: (item) => t(`${kind}.moveDown`, { item }),
        }}
        items={items}
        reorder={reorder}
        label={label}
        dataOf={dataOf}
        emptyTestId={`${kind}-empty`}
        align={align}
        content={(item) => (
          <>
            {media(item, label(item))}
            <div className="min-w-40 flex-1 space-y-1">
              <p className="font-semibold text-ink">
                {label(item)}
                {nameExtra?.(item)}
              </p>
              <ModerationBadge moderation={item.moderation} reason={item.declineReason} />
              <p className="text-sm text-slate-700">
                {t(`${kind}.uploadedOn`, { date: item.uploadedOn })}
                {dateExtra?.(item)}
              </p>
              <label className="flex min-h-10 items-center gap-2 text-sm text-ink">
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  checked={item.isOnline}
                  disabled={busy}
                  onChange={(event) => {
                    const online = event.currentTarget.checked;
                    const previous = items;
                    onChange(items.map((i) => (i.id === item.id ? { ...i, isOnline: online } : i)));
                    void act(() => api.setOnline(item.id, online), online ? t(`${kind}.nowOnline`) : t(`${kind}.nowOffline`), previous);
                  }}
                />
                {t(`${kind}.online`)}
              </label>
            </div>
          </>
        )}
        actions={(item) => (
          <>
            {actions?.(item, { label: label(item), busy, act })}
            <button type="button" className={smallButton} disabled={busy} aria-label={t(`${kind}.deleteOf`, { item: label(item) })} onClick={() => setConfirming(item)}>
              {t('form.delete')}
            </button>
          </>
        )}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={t(`${kind}.confirmTitle`)}
        body={t(`${kind}.confirmBody`)}
        confirmLabel={t(`${kind}.confirmDelete`)}
        cancelLabel={t('form.cancel')}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const item = confirming;
          setConfirming(null);
          if (item) void act(() => api.remove(item.id), t(`${kind}.deleted`));
        }}
      />
    </>
  );
}

/**
 * A backend list the advertiser orders (price items, pictures, videos): the section's heading and help,
 * the live region that announces a move, the empty text or the list, each item with its drag handle,
 * the screen's own content, the move up / move down buttons and the screen's own actions.
 * The order itself is kept by useReorder (../shared/use-reorder.tsx).
 */
import type { ReactNode } from 'react';
import { ReorderStatus, type Reorder } from '../shared/use-reorder.tsx';
import { smallButton } from '../shared/form-text.ts';

export type ReorderListTexts = {
  title: string;
  help: string;
  empty: string;
  dragHint: string;
  moveUp: (item: string) => string;
  moveDown: (item: string) => string;
};

type DataAttributes = Record<`data-${string}`, string | number>;

type Props<T> = {
  /** The heading's id (the section is labelled by it). */
  titleId: string;
  texts: ReorderListTexts;
  items: T[];
  reorder: Reorder<T>;
  /** The item's name in the move buttons' labels. */
  label: (item: T) => string;
  /** The list item's data attributes (e.g. data-picture-id). */
  dataOf: (item: T) => DataAttributes;
  emptyTestId?: string;
  /** How the item's parts line up (the video player is taller than the rest). */
  align?: 'center' | 'start';
  /** What the item shows between the drag handle and the buttons. */
  content: (item: T) => ReactNode;
  /** The screen's buttons after move up / move down. */
  actions: (item: T) => ReactNode;
  /** Shown after the list inside the section (e.g. the add form). */
  children?: ReactNode;
};

export function ReorderList<T extends { id: number }>({ titleId, texts, items, reorder, label, dataOf, emptyTestId, align = 'center', content, actions, children }: Props<T>) {
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId} className="text-xl font-semibold text-ink">
        {texts.title}
      </h2>
      <p className="mt-1 max-w-prose text-sm text-slate-700">{texts.help}</p>
      <ReorderStatus text={reorder.announcement} />
      {items.length === 0 ? (
        <p className="mt-4 text-slate-700" data-testid={emptyTestId}>
          {texts.empty}
        </p>
      ) : (
        <ol className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" aria-label={texts.title}>
          {items.map((item, index) => (
            <li
              key={item.id}
              {...dataOf(item)}
              {...reorder.itemProps(item)}
              className={`flex flex-wrap ${align === 'start' ? 'items-start' : 'items-center'} gap-3 p-3 ${reorder.itemClass(item)}`}
            >
              <span aria-hidden="true" className="cursor-grab select-none px-1 text-xl text-slate-500" title={texts.dragHint}>
                ⠿
              </span>
              {content(item)}
              <div className="flex flex-wrap gap-2">
                <button type="button" {...reorder.moveButtonProps(item, index, -1)} className={smallButton} aria-label={texts.moveUp(label(item))}>
                  ↑
                </button>
                <button type="button" {...reorder.moveButtonProps(item, index, 1)} className={smallButton} aria-label={texts.moveDown(label(item))}>
                  ↓
                </button>
                {actions(item)}
              </div>
            </li>
          ))}
        </ol>
      )}
      {children}
    </section>
  );
}

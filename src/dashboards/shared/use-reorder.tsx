/**
 * Reordering a list by drag and drop AND by keyboard ("move up" / "move down" buttons), shared by the
 * backend screens (price items, pictures, videos). The hook keeps the drag state, moves an item, keeps
 * the focus on the button that was pressed (or its enabled twin at the end of the list) and the text of
 * the live region; the screen saves the new order (`onReorder`) and words the announcement.
 */
import { useEffect, useRef, useState, type DragEvent } from 'react';

type Options<T> = {
  items: T[];
  idOf: (item: T) => number;
  /** Prefix of the move buttons' ids, unique on the page (e.g. 'price-item'). */
  idPrefix: string;
  /** The announcement after a move, e.g. "60 min moved to position 2 of 3." (position is 1-based). */
  announce: (moved: T, position: number, count: number) => string;
  /** Saves the new order (the screen shows it at once and restores the old one if the call fails). */
  onReorder: (next: T[], moved: T) => void;
};

export type Reorder<T> = {
  /** The live region's text. */
  announcement: string;
  /** Drag and drop props and classes of one list item. */
  itemProps: (item: T) => {
    draggable: true;
    onDragStart: (event: DragEvent) => void;
    onDragEnd: () => void;
    onDragOver: (event: DragEvent) => void;
    onDrop: (event: DragEvent) => void;
  };
  /** Extra classes of a list item while something is dragged ('' otherwise). */
  itemClass: (item: T) => string;
  /** Props of the move up (-1) and move down (+1) buttons of the item at `index`. */
  moveButtonProps: (item: T, index: number, delta: -1 | 1) => { id: string; 'data-move': true; disabled: boolean; onClick: () => void };
};

export function useReorder<T>({ items, idOf, idPrefix, announce, onReorder }: Options<T>): Reorder<T> {
  const [announcement, setAnnouncement] = useState('');
  const [dragId, setDragId] = useState<number | null>(null);
  /** The dragged item, also in a ref: dragover may come before React has rendered the drag state. */
  const dragging = useRef<number | null>(null);
  const [dropId, setDropId] = useState<number | null>(null);
  const focusAfterMove = useRef<string | null>(null);

  useEffect(() => {
    if (!focusAfterMove.current) return;
    const button = document.getElementById(focusAfterMove.current);
    focusAfterMove.current = null;
    if (button instanceof HTMLButtonElement) (button.disabled ? button.parentElement?.querySelector<HTMLButtonElement>('button[data-move]:not(:disabled)') : button)?.focus();
  });

  function commit(next: T[], moved: T) {
    const position = next.findIndex((item) => idOf(item) === idOf(moved)) + 1;
    setAnnouncement(announce(moved, position, next.length));
    onReorder(next, moved);
  }

  function move(item: T, delta: -1 | 1, buttonId: string) {
    const index = items.findIndex((i) => idOf(i) === idOf(item));
    const target = index + delta;
    if (index < 0 || target < 0 || target >= items.length) return;
    const next = [...items];
    next.splice(index, 1);
    next.splice(target, 0, item);
    focusAfterMove.current = buttonId;
    commit(next, item);
  }

  function drop(targetId: number) {
    const from = items.findIndex((i) => idOf(i) === dragging.current);
    const to = items.findIndex((i) => idOf(i) === targetId);
    dragging.current = null;
    setDragId(null);
    setDropId(null);
    if (from < 0 || to < 0 || from === to) return;
    const next = [...items];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    commit(next, moved!);
  }

  return {
    announcement,
    itemProps: (item) => ({
      draggable: true,
      onDragStart: (event) => {
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('text/plain', String(idOf(item)));
        dragging.current = idOf(item);
        setDragId(idOf(item));
      },
      onDragEnd: () => {
        dragging.current = null;
        setDragId(null);
        setDropId(null);
      },
      onDragOver: (event) => {
        if (dragging.current === null) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        if (dropId !== idOf(item)) setDropId(idOf(item));
      },
      onDrop: (event) => {
        if (dragging.current === null) return;
        event.preventDefault();
        drop(idOf(item));
      },
    }),
    itemClass: (item) => {
      const id = idOf(item);
      return `${dragId === id ? 'opacity-50' : ''} ${dropId === id && dragId !== id ? 'bg-brand-50' : ''}`.trim();
    },
    moveButtonProps: (item, index, delta) => {
      const id = `${idPrefix}-move-${delta < 0 ? 'up' : 'down'}-${idOf(item)}`;
      return {
        id,
        'data-move': true,
        disabled: delta < 0 ? index === 0 : index === items.length - 1,
        onClick: () => move(item, delta, id),
      };
    },
  };
}

/** The visually hidden live region that announces a move. */
export function ReorderStatus({ text }: { text: string }) {
  return (
    <p className="sr-only" aria-live="polite" data-testid="reorder-status">
      {text}
    </p>
  );
}

/**
 * Asks before an irreversible action on one item: `ask(item)` opens the ConfirmDialog, `dialog(...)`
 * renders it; confirming calls `onConfirm(item)`, Cancel or Escape drops it.
 */
import { useState, type ReactElement } from 'react';
import { ConfirmDialog } from './ConfirmDialog.tsx';

type DialogTexts<T> = {
  title: string;
  body: (item: T) => string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: (item: T) => void;
};

export function useConfirmation<T>(): { ask: (item: T) => void; dialog: (texts: DialogTexts<T>) => ReactElement } {
  const [pending, setPending] = useState<{ item: T } | null>(null);
  return {
    ask: (item) => setPending({ item }),
    dialog: ({ title, body, confirmLabel, cancelLabel, onConfirm }) => (
      <ConfirmDialog
        open={pending !== null}
        title={title}
        body={pending ? body(pending.item) : ''}
        confirmLabel={confirmLabel}
        cancelLabel={cancelLabel}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          const current = pending;
          setPending(null);
          if (current) onConfirm(current.item);
        }}
      />
    ),
  };
}

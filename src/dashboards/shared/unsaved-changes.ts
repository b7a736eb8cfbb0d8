/**
 * Unsaved changes are not lost by navigating away without a warning: a screen with a changed, unsaved
 * form calls `useUnsavedChanges(isDirty, message)`. Leaving the page (reload, another site, closing the
 * tab) asks through the browser's `beforeunload`; moving to another screen of the app asks with
 * `confirmLeave()`, which AppLink calls before it opens a route.
 */
import { useEffect, useId } from 'react';
import { atom } from 'nanostores';

/** Screens with unsaved changes: id → the question to ask. */
export const $unsavedChanges = atom<Record<string, string>>({});

export function useUnsavedChanges(dirty: boolean, message: string): void {
  const id = useId();
  useEffect(() => {
    if (!dirty) return;
    $unsavedChanges.set({ ...$unsavedChanges.get(), [id]: message });
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need a returnValue to show their (own, fixed) question.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      const { [id]: _removed, ...rest } = $unsavedChanges.get();
      $unsavedChanges.set(rest);
    };
  }, [dirty, id, message]);
}

/** True when nothing is unsaved or the user agrees to leave; then the unsaved marks are cleared. */
export function confirmLeave(): boolean {
  const messages = Object.values($unsavedChanges.get());
  if (messages.length === 0) return true;
  if (!window.confirm(messages[0])) return false;
  $unsavedChanges.set({});
  return true;
}

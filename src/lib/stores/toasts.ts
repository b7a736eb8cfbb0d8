/**
 * Toasts (spec sections 3, 4, 9): one at a time (limit 1); variants default, destructive, delete, error,
 * success, nsfw; a toast closes by itself after the provider duration (2000 ms) and is removed 3000 ms
 * after it was dismissed. The `Toaster` island renders this store.
 */
import { atom } from 'nanostores';

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 3000;
export const TOAST_DURATION = 2000;

export const toastVariants = ['default', 'destructive', 'delete', 'error', 'success', 'nsfw'] as const;
export type ToastVariant = (typeof toastVariants)[number];

export type Toast = {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
};

export type ToastInput = {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds until it closes by itself; default TOAST_DURATION; Infinity keeps it open. */
  duration?: number;
};

export const $toasts = atom<Toast[]>([]);

let counter = 0;
const dismissTimers = new Map<string, ReturnType<typeof setTimeout>>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function clearTimer(timers: Map<string, ReturnType<typeof setTimeout>>, id: string) {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

/** Removes a toast from the store at once. */
export function removeToast(id: string): void {
  clearTimer(dismissTimers, id);
  clearTimer(removeTimers, id);
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}

/** Closes a toast (open: false) and removes it TOAST_REMOVE_DELAY ms later. */
export function dismissToast(id: string): void {
  const current = $toasts.get();
  if (!current.some((t) => t.id === id)) return;
  clearTimer(dismissTimers, id);
  $toasts.set(current.map((t) => (t.id === id ? { ...t, open: false } : t)));
  if (!removeTimers.has(id)) {
    removeTimers.set(
      id,
      setTimeout(() => removeToast(id), TOAST_REMOVE_DELAY),
    );
  }
}

/** Closes every toast. */
export function dismissAllToasts(): void {
  for (const t of $toasts.get()) dismissToast(t.id);
}

/** Shows a toast; the newest replaces older ones (limit 1). Returns its id. */
export function toast(input: ToastInput): string {
  counter += 1;
  const id = `toast-${counter}`;
  const next: Toast = {
    id,
    title: input.title,
    variant: input.variant ?? 'default',
    open: true,
    ...(input.description !== undefined ? { description: input.description } : {}),
  };
  const kept = [next, ...$toasts.get()].slice(0, TOAST_LIMIT);
  for (const old of $toasts.get()) {
    if (!kept.includes(old)) {
      clearTimer(dismissTimers, old.id);
      clearTimer(removeTimers, old.id);
    }
  }
  $toasts.set(kept);
  const duration = input.duration ?? TOAST_DURATION;
  if (Number.isFinite(duration)) {
    dismissTimers.set(
      id,
      setTimeout(() => dismissToast(id), duration),
    );
  }
  return id;
}

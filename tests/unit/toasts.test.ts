import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $toasts,
  TOAST_DURATION,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  dismissToast,
  removeToast,
  toast,
  toastVariants,
} from '#lib/stores/toasts.ts';

describe('toasts store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    for (const t of $toasts.get()) removeToast(t.id);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has the spec constants and variants', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_REMOVE_DELAY).toBe(3000);
    expect(TOAST_DURATION).toBe(2000);
    expect([...toastVariants]).toEqual(['default', 'destructive', 'delete', 'error', 'success', 'nsfw']);
  });

  it('shows one toast at a time: the newest replaces the previous', () => {
    toast({ title: 'First' });
    const id = toast({ title: 'Second', variant: 'success', description: 'Saved' });
    expect($toasts.get()).toEqual([{ id, title: 'Second', description: 'Saved', variant: 'success', open: true }]);
  });

  it('defaults to the default variant', () => {
    toast({ title: 'Plain' });
    expect($toasts.get()[0]?.variant).toBe('default');
  });

  it('closes after 2000 ms and is removed 3000 ms later', () => {
    const id = toast({ title: 'Auto' });
    vi.advanceTimersByTime(TOAST_DURATION - 1);
    expect($toasts.get()[0]?.open).toBe(true);
    vi.advanceTimersByTime(1);
    expect($toasts.get()[0]).toMatchObject({ id, open: false });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toHaveLength(0);
  });

  it('a dismissed toast is removed 3000 ms after the dismissal', () => {
    const id = toast({ title: 'Manual', variant: 'error', duration: Infinity });
    vi.advanceTimersByTime(10_000);
    expect($toasts.get()[0]?.open).toBe(true);
    dismissToast(id);
    expect($toasts.get()[0]?.open).toBe(false);
    vi.advanceTimersByTime(2999);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toHaveLength(0);
  });

  it('a replaced toast does not remove its successor later', () => {
    toast({ title: 'Old' });
    vi.advanceTimersByTime(1000);
    const id = toast({ title: 'New', duration: Infinity });
    vi.advanceTimersByTime(10_000);
    expect($toasts.get()).toEqual([expect.objectContaining({ id, open: true })]);
  });
});

/** Renders the toast store (src/lib/stores/toasts.ts): a live region at the bottom of the screen. */
import { useStore } from '@nanostores/react';
import { $toasts, dismissToast, type ToastVariant } from '#lib/stores/toasts.ts';

const variantClass: Record<ToastVariant, string> = {
  default: 'border-slate-200 bg-white text-ink',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  error: 'border-red-300 bg-red-50 text-red-950',
  destructive: 'border-red-700 bg-red-700 text-white',
  delete: 'border-slate-800 bg-slate-800 text-white',
  nsfw: 'border-amber-300 bg-amber-50 text-amber-950',
};

type Props = { closeLabel: string; regionLabel: string };

export default function Toaster({ closeLabel, regionLabel }: Props) {
  const toasts = useStore($toasts);
  return (
    <section aria-label={regionLabel} className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col items-center gap-2 p-4 md:items-end">
      {toasts.map((t) => {
        const urgent = t.variant === 'error' || t.variant === 'destructive';
        return (
          <div
            key={t.id}
            role={urgent ? 'alert' : 'status'}
            data-variant={t.variant}
            data-state={t.open ? 'open' : 'closed'}
            hidden={!t.open}
            className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-lg ${variantClass[t.variant]}`}
          >
            <div className="flex-1">
              <p className="font-semibold">{t.title}</p>
              {t.description ? <p className="mt-1 text-sm opacity-90">{t.description}</p> : null}
            </div>
            <button
              type="button"
              onClick={() => dismissToast(t.id)}
              aria-label={closeLabel}
              className="-m-1 inline-flex h-8 w-8 items-center justify-center rounded-md opacity-80 hover:opacity-100"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
              </svg>
            </button>
          </div>
        );
      })}
    </section>
  );
}

/** The sign-up screens' button looks (PhoneStep, CheckEmailStep). */
export const secondaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 font-semibold text-ink hover:bg-slate-50 disabled:opacity-70';
export const primaryButton =
  'inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70';

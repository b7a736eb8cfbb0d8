/**
 * The header's user icon: links to the login page, or to the dashboard when the visitor has a session
 * (see src/lib/stores/signed-in.ts; a 401 keeps the login link).
 */
import { useStore } from '@nanostores/react';
import { $signedIn } from '#lib/stores/signed-in.ts';

type Props = {
  loginHref: string;
  loginLabel: string;
  dashboardLabel: string;
  /** Shows the label next to the icon (mobile menu). */
  showLabel?: boolean;
};

export default function UserLink({ loginHref, loginLabel, dashboardLabel, showLabel = false }: Props) {
  const signedIn = useStore($signedIn) === true;
  const label = signedIn ? dashboardLabel : loginLabel;
  return (
    <a
      href={signedIn ? '/backend/dashboard/' : loginHref}
      aria-label={showLabel ? undefined : label}
      title={showLabel ? undefined : label}
      data-signed-in={signedIn ? 'true' : 'false'}
      className="inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-md px-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="1.8">
        <circle cx="12" cy="8" r="4" />
        <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7" strokeLinecap="round" />
      </svg>
      {showLabel ? <span>{label}</span> : null}
    </a>
  );
}

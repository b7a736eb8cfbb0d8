/** Full-screen status (loading, signing out, errors) shown before the app frame exists. */
import type { ReactNode } from 'react';

export function StatusScreen({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center p-6 text-center text-slate-700" role="status">
      <div>{children}</div>
    </div>
  );
}

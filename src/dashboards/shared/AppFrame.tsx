/**
 * The frame of a client-only app: top bar (title, language switch, menu button below 1024 px),
 * sidebar navigation with the screens the user may open, and the screen.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { AppLink, type AppNavigator } from './AppLink.tsx';

export type NavItem = { href: string; label: string; current: boolean };
export type NavGroup = { label: string; items: NavItem[] };

type Props = {
  router: AppNavigator;
  title: string;
  homeHref: string;
  navLabel: string;
  openMenuLabel: string;
  closeMenuLabel: string;
  groups: NavGroup[];
  topRight: ReactNode;
  children: ReactNode;
};

export function AppFrame({ router, title, homeHref, navLabel, openMenuLabel, closeMenuLabel, groups, topRight, children }: Props) {
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const nav = (
    <nav aria-label={navLabel} className="space-y-6">
      {groups.map((group) => (
        <div key={group.label}>
          <p className="px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.label}</p>
          <ul className="mt-2 space-y-0.5">
            {group.items.map((item) => (
              <li key={item.href}>
                <AppLink
                  router={router}
                  href={item.href}
                  aria-current={item.current ? 'page' : undefined}
                  onClick={() => setMenuOpen(false)}
                  className={`flex min-h-10 items-center rounded-md px-3 text-sm ${item.current ? 'bg-brand-50 font-semibold text-brand-800' : 'text-slate-800 hover:bg-slate-100'}`}
                >
                  {item.label}
                </AppLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="flex h-14 items-center gap-3 px-4">
          <button
            type="button"
            className="inline-flex h-10 w-10 items-center justify-center rounded-md hover:bg-slate-100 lg:hidden"
            aria-expanded={menuOpen}
            aria-controls="app-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
              {menuOpen ? <path d="m6 6 12 12M18 6 6 18" strokeLinecap="round" /> : <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />}
            </svg>
            <span className="sr-only">{menuOpen ? closeMenuLabel : openMenuLabel}</span>
          </button>
          <AppLink router={router} href={homeHref} className="font-bold text-ink">
            {title}
          </AppLink>
          <div className="ml-auto flex items-center gap-3">{topRight}</div>
        </div>
      </header>
      <div className="mx-auto flex max-w-[1400px]">
        <aside
          id="app-nav"
          className={`${menuOpen ? 'block' : 'hidden'} fixed inset-x-0 top-14 bottom-0 z-20 overflow-y-auto border-r border-slate-200 bg-white p-4 lg:sticky lg:block lg:h-[calc(100vh-3.5rem)] lg:w-64 lg:shrink-0`}
        >
          {nav}
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 focus:outline-none md:p-6 lg:p-8">
          {children}
        </main>
      </div>
    </div>
  );
}

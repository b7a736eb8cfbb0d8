/**
 * A link inside a client-only app: opens the route without reloading (ordinary clicks only), after asking
 * when the screen has unsaved changes (./unsaved-changes.ts).
 */
import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { confirmLeave } from './unsaved-changes.ts';

/** What a link needs from an app's router (any @nanostores/router instance). */
export type AppNavigator = { open(path: string, redirect?: boolean): unknown };

type Props = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; router: AppNavigator };

export function AppLink({ router, href, onClick, ...rest }: Props) {
  function handle(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    if (!confirmLeave()) return;
    router.open(href);
    window.scrollTo({ top: 0 });
  }
  return <a href={href} onClick={handle} {...rest} />;
}

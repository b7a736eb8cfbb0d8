/** /support/log-out/: POST /api/support/logout, forget the profile, back to the support login. */
import { useEffect } from 'react';
import { supportApi } from '#lib/api/support.ts';
import { StatusScreen } from '../../shared/StatusScreen.tsx';
import { $supportProfile } from '../session.ts';

export function LogOutScreen({ text }: { text: string }) {
  useEffect(() => {
    supportApi
      .logout()
      .catch(() => undefined)
      .finally(() => {
        $supportProfile.set(null);
        location.assign('/support/login/');
      });
  }, []);
  return <StatusScreen>{text}</StatusScreen>;
}

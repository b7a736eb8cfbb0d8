/** /backend/log-out/: POST /api/backend/logout, then the front page (also when the session was gone). */
import { useEffect } from 'react';
import { backendApi } from '#lib/api/backend.ts';
import { StatusScreen } from '../../shared/StatusScreen.tsx';

export function LogOutScreen({ text }: { text: string }) {
  useEffect(() => {
    backendApi
      .logout()
      .catch(() => undefined)
      .finally(() => location.assign('/'));
  }, []);
  return <StatusScreen>{text}</StatusScreen>;
}

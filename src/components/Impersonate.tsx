/**
 * Support's "sign in as this advertiser": POST /api/frontend/impersonate with the page's `url` query value
 * (as `Url` in the JSON body); on success the browser goes to the dashboard, on failure it stays here and says so (spec).
 */
import { useEffect, useState } from 'react';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { frontendApi } from '#lib/api/frontend.ts';

type Props = { messages: Messages };

export default function Impersonate({ messages }: Props) {
  const t = messagesT(messages);
  const [state, setState] = useState<'working' | 'failed'>('working');

  useEffect(() => {
    const url = new URLSearchParams(location.search).get('url') ?? '';
    frontendApi.impersonate(url).then(
      () => location.assign('/backend/dashboard/'),
      () => setState('failed'),
    );
  }, []);

  return (
    <p role="status" className="mt-4 text-lg text-slate-700">
      {state === 'working' ? t('impersonate.working') : t('impersonate.failed')}
    </p>
  );
}

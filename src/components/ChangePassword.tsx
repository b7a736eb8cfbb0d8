/** /login/change/: checks the link's token and id; the form itself comes with the account issue. */
import { useEffect, useState } from 'react';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { readChangePasswordQuery } from './change-password-query.ts';

type Props = { messages: Messages; forgotHref: string };

export default function ChangePassword({ messages, forgotHref }: Props) {
  const t = messagesT(messages);
  const [valid, setValid] = useState<boolean | null>(null);

  useEffect(() => {
    setValid(readChangePasswordQuery(location.search) !== null);
  }, []);

  if (valid === null) return null;
  if (!valid) {
    return (
      <div role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
        <p>{t('login.changeMissing')}</p>
        <p className="mt-2">
          <a href={forgotHref} className="font-semibold underline">
            {t('login.requestNew')}
          </a>
        </p>
      </div>
    );
  }
  return (
    <p data-change-ready className="mt-4 text-slate-700">
      {t('login.changeComing')}
    </p>
  );
}

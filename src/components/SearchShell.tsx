/** /search/{text}/ (served from /search/index.html by the server): shows the text; results come later. */
import { useEffect, useState } from 'react';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { searchTextFrom } from './search-text.ts';

type Props = { messages: Messages };

export default function SearchShell({ messages }: Props) {
  const t = messagesT(messages);
  const [text, setText] = useState<string | null>(null);

  useEffect(() => {
    const value = searchTextFrom(location.pathname, location.search);
    setText(value);
    const input = document.querySelector<HTMLInputElement>('#header-search');
    if (input && value) input.value = value;
  }, []);

  return (
    <div>
      <h1 className="text-3xl font-bold tracking-tight text-ink">
        {text ? t('search_page.heading', { text }) : t('search_page.headingEmpty')}
      </h1>
      <p className="mt-4 text-lg text-slate-700">{t('search_page.coming')}</p>
    </div>
  );
}

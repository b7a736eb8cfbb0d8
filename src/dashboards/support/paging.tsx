/** The paging of every support list (adverts, orders, users, queues, an advert's sections): ../shared/paging.tsx on the support app's router. */
import type { ComponentProps } from 'react';
import { Paging as AppPaging } from '../shared/paging.tsx';
import { supportRouter } from './routes.ts';

export function Paging(props: Omit<ComponentProps<typeof AppPaging>, 'router'>) {
  return <AppPaging router={supportRouter} {...props} />;
}

/**
 * Previous / "page n of m" / next under the cases and queue lists, named by the list it pages
 * (`label`); `count` is the total as shown (shownTotal: an estimate says so). `children` follow
 * the buttons (the cases list's page size).
 */
import type { ReactNode } from 'react';
import { useT } from '../../shell/i18n.tsx';

export function ListPager(props: {
  label: string;
  page: number;
  pages: number;
  count: string | number;
  onPage: (page: number) => void;
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <nav className="pager" aria-label={props.label}>
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        {t('common.previous')}
      </button>
      <span>{t('common.pageOf', { page: props.page, pages: props.pages, count: props.count })}</span>
      <button type="button" disabled={props.page >= props.pages} onClick={() => props.onPage(props.page + 1)}>
        {t('common.next')}
      </button>
      {props.children}
    </nav>
  );
}

/**
 * One page of a review-queue list (its checks, its cases): the page shown, its rows once loaded, the
 * load's failure, and how many pages there are. A page that failed before does not hide the next
 * one that loads; an answer that comes after the page moved on is dropped.
 */
import { useEffect, useRef, useState } from 'react';

export interface QueuePageList {
  pagination: { count: number; count_estimated?: boolean };
}

export function useQueuePage<L extends QueuePageList>(load: (page: number) => Promise<L>, limit: number) {
  const [page, setPage] = useState(1);
  const [list, setList] = useState<L | null>(null);
  const [error, setError] = useState<string | null>(null);
  // the loader of the latest render: the page number alone decides when to load
  const loader = useRef(load);
  loader.current = load;

  useEffect(() => {
    let live = true;
    setError(null);
    loader.current(page).then(
      (l) => live && setList(l),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [page]);

  const count = list?.pagination.count ?? 0;
  return { page, setPage, list, error, count, pages: Math.max(1, Math.ceil(count / limit)) };
}

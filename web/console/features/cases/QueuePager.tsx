/** The pager under a review-queue list, shown when the list has more than one page. */
import { shownTotal } from '../../api/totals.ts';
import { ListPager } from './ListPager.tsx';
import type { QueuePageList, useQueuePage } from './use-queue-page.ts';

export function QueuePager({
  label,
  queue,
}: {
  label: string;
  queue: ReturnType<typeof useQueuePage<QueuePageList>>;
}) {
  if (queue.pages <= 1) return null;
  return (
    <ListPager
      label={label}
      page={queue.page}
      pages={queue.pages}
      count={shownTotal(queue.count, queue.list?.pagination.count_estimated)}
      onPage={queue.setPage}
    />
  );
}

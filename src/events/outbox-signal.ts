/**
 * A hint, inside one process, that webhook work just appeared: events were recorded (their outbox
 * rows), or a delivery was made due by hand (a retry, a replay), or a webhook was created. The
 * webhook loop sleeps a second between its probes when nothing happens, and the hint puts it back
 * on its 50 ms poll at once (src/webhooks/engine.ts); a process without the loop passes it on to
 * the other processes' loops (src/webhooks/outbox-notify.ts). It is only a hint: the work is in the
 * database whether anyone hears it or not, and the slow poll finds it.
 *
 * `committed`: the work is committed already (a route after its use case), so the loop can take a
 * turn at once. Events are signalled from inside their still-open transaction (false): a listener
 * must not expect to see them before its next poll.
 */
type Listener = (committed: boolean) => void;

const listeners = new Set<Listener>();

/** Calls `listener` each time webhook work appears in this process; returns the unsubscribe. */
export function onWebhookWork(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function signalWebhookWork(committed = false): void {
  for (const listener of listeners) listener(committed);
}

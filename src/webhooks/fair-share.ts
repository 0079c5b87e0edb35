/** A webhook that has deliveries due now, with its workspace. */
export interface DueWebhook {
  webhook_id: string;
  workspace_id: string;
}

interface HookLoad {
  id: string;
  load: number;
  given: number;
}
interface WorkspaceLoad {
  load: number;
  hooks: HookLoad[];
}

export interface ShareLimits {
  /** Request slots free in this process now. */
  free: number;
  /** Most requests in flight for one workspace. */
  perWorkspace: number;
  /** Most requests in flight for one webhook. */
  perWebhook: number;
}

/**
 * How many due deliveries to claim from each webhook this turn: the free slots go one at a time to
 * the least-loaded workspace (requests in flight plus those given this turn), and within it to its
 * least-loaded webhook, each under its cap (max-min fairness). A workspace with a huge backlog or
 * hanging endpoints therefore gets no more than any other workspace that has work, and never more
 * than its cap, so slots stay free for the others. Ties are broken by `rotation`, which the caller
 * changes every turn, so equal workspaces take turns when slots are scarce.
 */
export function allocateClaims(
  due: DueWebhook[],
  inFlightByWebhook: ReadonlyMap<string, number>,
  inFlightByWorkspace: ReadonlyMap<string, number>,
  limits: ShareLimits,
  rotation: number,
): Map<string, number> {
  const workspaces = new Map<string, WorkspaceLoad>();
  for (const d of due) {
    let ws = workspaces.get(d.workspace_id);
    if (!ws) {
      ws = { load: inFlightByWorkspace.get(d.workspace_id) ?? 0, hooks: [] };
      workspaces.set(d.workspace_id, ws);
    }
    if (!ws.hooks.some((h) => h.id === d.webhook_id))
      ws.hooks.push({ id: d.webhook_id, load: inFlightByWebhook.get(d.webhook_id) ?? 0, given: 0 });
  }
  const order = rotate([...workspaces.values()], rotation);
  for (const ws of order) ws.hooks = rotate(ws.hooks, rotation);

  const out = new Map<string, number>();
  let free = limits.free;
  while (free > 0) {
    // the least-loaded workspace that still has a webhook under its cap (first in rotation on ties)
    let best: { ws: WorkspaceLoad; hook: HookLoad } | undefined;
    for (const ws of order) {
      if (ws.load >= limits.perWorkspace || (best && ws.load >= best.ws.load)) continue;
      let hook: HookLoad | undefined;
      for (const h of ws.hooks) if (h.load < limits.perWebhook && (!hook || h.load < hook.load)) hook = h;
      if (hook) best = { ws, hook };
    }
    if (!best) break;
    best.ws.load++;
    best.hook.load++;
    best.hook.given++;
    out.set(best.hook.id, best.hook.given);
    free--;
  }
  return out;
}

function rotate<T>(list: T[], by: number): T[] {
  if (!list.length) return list;
  const k = ((by % list.length) + list.length) % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

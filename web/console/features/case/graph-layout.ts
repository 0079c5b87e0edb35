/**
 * The case's ownership and representation graph, laid out in rows for an SVG. Pure (no DOM, no
 * React): the tests call it directly.
 *
 * A relation goes from its source (a company or an individual that owns or represents) to a company.
 * The main company sits on the top row; the entities related to it on the row below, their own
 * owners and representatives below them, and so on (the shortest path to the main company decides
 * the level, so cycles end). Companies no path reaches start their own tree beside the main one;
 * entities with no relation at all go on the last rows. Within a level, entities are ordered by the
 * mean position of what they point to (fewer crossings), companies before individuals. A level wider
 * than the drawing wraps onto several rows, so 50 entities stay readable at their natural size
 * instead of being shrunk.
 */

export interface GraphEntity {
  id: string;
  kind: 'company' | 'individual';
  name: string;
  /** The case's main company (there is usually one). */
  main?: boolean;
}

export interface GraphRelation {
  id: string;
  from: string;
  to: string;
  ownership: number | null;
  voting: number | null;
  roles: string[];
  position: string | null;
}

export interface PlacedNode<E extends GraphEntity = GraphEntity> {
  entity: E;
  x: number;
  y: number;
  level: number;
  /** Not connected to anything. */
  isolated: boolean;
}

export interface PlacedEdge {
  relation: GraphRelation;
  /** SVG path data from the source to the target. */
  path: string;
  /**
   * The centre of the label: on the edge, near the source where it is clear (labels of one target
   * do not pile up), else the nearest point of the edge where it covers no entity's box.
   */
  labelX: number;
  labelY: number;
}

export interface GraphLayout<E extends GraphEntity = GraphEntity> {
  width: number;
  height: number;
  nodes: PlacedNode<E>[];
  edges: PlacedEdge[];
}

export interface LayoutOptions {
  /** Width available; rows wrap to fit it (at least one node per row). */
  maxWidth: number;
  nodeWidth?: number;
  nodeHeight?: number;
  gapX?: number;
  gapY?: number;
  margin?: number;
  /** Each relation's label size (the drawing knows its words); by default a short percentage's. */
  labelSize?: (r: GraphRelation) => { width: number; height: number };
}

/** The height of an edge's label (its pill), and the width of one holding `text` (its own estimate of the font). */
export const LABEL_HEIGHT = 20;
export function labelWidth(text: string): number {
  return Math.min(150, text.length * 7 + 12);
}
/** The room kept between a label and an entity's box (its border and the selection ring). */
const LABEL_CLEARANCE = 4;

export const NODE_WIDTH = 204;
export const NODE_HEIGHT = 60;

export function layoutGraph<E extends GraphEntity>(
  entities: E[],
  relations: GraphRelation[],
  options: LayoutOptions,
): GraphLayout<E> {
  const nodeW = options.nodeWidth ?? NODE_WIDTH;
  const nodeH = options.nodeHeight ?? NODE_HEIGHT;
  const gapX = options.gapX ?? 24;
  const gapY = options.gapY ?? 56;
  const margin = options.margin ?? 16;
  const labelSize = options.labelSize ?? (() => ({ width: labelWidth('100 %'), height: LABEL_HEIGHT }));

  const byId = new Map(entities.map((e) => [e.id, e]));
  // relations between entities of the graph only (a dangling id draws nothing)
  const rels = relations.filter((r) => byId.has(r.from) && byId.has(r.to) && r.from !== r.to);
  const sourcesOf = new Map<string, string[]>();
  const targetsOf = new Map<string, string[]>();
  for (const r of rels) {
    push(sourcesOf, r.to, r.from);
    push(targetsOf, r.from, r.to);
  }

  // levels: breadth first from the main companies, along relations backwards (target → source)
  const level = new Map<string, number>();
  const bfs = (roots: string[]) => {
    let frontier = roots.filter((id) => !level.has(id));
    for (const id of frontier) level.set(id, 0);
    let depth = 0;
    while (frontier.length) {
      depth++;
      const next: string[] = [];
      for (const id of frontier) {
        for (const s of sourcesOf.get(id) ?? []) {
          if (level.has(s)) continue;
          level.set(s, depth);
          next.push(s);
        }
      }
      frontier = next;
    }
  };
  const mains = entities.filter((e) => e.main).map((e) => e.id);
  bfs(mains);
  // other trees: a company that owns or is represented but reaches no main company; the topmost
  // of its tree (nothing it points to is unplaced) is its root
  for (;;) {
    const root = entities.find(
      (e) =>
        !level.has(e.id) &&
        (sourcesOf.get(e.id)?.length ?? 0) > 0 &&
        (targetsOf.get(e.id) ?? []).every((t) => level.has(t)),
    );
    if (!root) break;
    bfs([root.id]);
  }
  // what is left: a cycle with no way in (start anywhere in it), then entities with no relation
  for (const e of entities) if (!level.has(e.id) && (sourcesOf.get(e.id)?.length ?? 0) > 0) bfs([e.id]);
  const isolated = entities.filter((e) => !level.has(e.id));
  const depth = Math.max(-1, ...level.values()) + 1;
  for (const e of isolated) level.set(e.id, depth);

  // order within levels: roots (mains first), then each level by its targets' mean position
  const levels: E[][] = Array.from({ length: depth + 1 }, () => []);
  for (const e of entities) levels[level.get(e.id)!].push(e);
  const order = new Map<string, number>();
  const kindRank = (e: E) => (e.main ? 0 : e.kind === 'company' ? 1 : 2);
  levels.forEach((row, l) => {
    const key = new Map<string, number>();
    for (const e of row) {
      const placed = (targetsOf.get(e.id) ?? []).filter((t) => order.has(t) && level.get(t)! < l);
      key.set(e.id, placed.length ? mean(placed.map((t) => order.get(t)!)) : Number.POSITIVE_INFINITY);
    }
    row.sort(
      (a, b) =>
        // two entities with nothing placed to point to: NaN, which falls through to the next key
        key.get(a.id)! - key.get(b.id)! || kindRank(a) - kindRank(b) || a.name.localeCompare(b.name),
    );
    // spread over [0, 1) so the next level compares positions, whatever each level's size
    row.forEach((e, i) => {
      order.set(e.id, row.length === 1 ? 0.5 : i / (row.length - 1));
    });
  });

  // rows: wrap each level to the width. A level that wraps sits on the grid of columns (its rows
  // start at the left margin), so the gaps between columns line up from row to row: edges from its
  // lower rows go up those gaps instead of through the entities above them
  const perRow = Math.max(1, Math.floor((options.maxWidth - 2 * margin + gapX) / (nodeW + gapX)));
  const cols = Math.min(perRow, Math.max(1, ...levels.map((r) => r.length)));
  const width = 2 * margin + cols * nodeW + (cols - 1) * gapX;
  const cell = nodeW + gapX;
  const nodes: PlacedNode<E>[] = [];
  const pos = new Map<string, PlacedNode<E>>();
  const rowOf = new Map<string, number>();
  // an edge within the top row arcs above it (see rowArc): room for it and its label over the row
  const firstRow = (levels.find((row) => row.length) ?? []).slice(0, perRow).map((e) => e.id);
  const arcsOverTop = rels
    .filter((r) => firstRow.includes(r.from) && firstRow.includes(r.to))
    .map((r) => {
      const dx = (Math.abs(firstRow.indexOf(r.from) - firstRow.indexOf(r.to)) - 1) * cell + gapX;
      // the arc's top above the row's middle, then half a label and its clearance, less half a row
      return 0.75 * rowArc(dx, nodeH) + LABEL_HEIGHT / 2 + LABEL_CLEARANCE - nodeH / 2;
    });
  const top = margin + Math.max(0, ...arcsOverTop);
  let rowIndex = 0;
  levels.forEach((row, l) => {
    const wraps = row.length > perRow;
    for (let start = 0; start < row.length; start += perRow) {
      const slice = row.slice(start, start + perRow);
      const rowWidth = slice.length * nodeW + (slice.length - 1) * gapX;
      const x0 = wraps ? margin : (width - rowWidth) / 2;
      const y = top + rowIndex * (nodeH + gapY);
      slice.forEach((e, i) => {
        const n: PlacedNode<E> = { entity: e, x: x0 + i * cell, y, level: l, isolated: isolated.includes(e) };
        nodes.push(n);
        pos.set(e.id, n);
        rowOf.set(e.id, rowIndex);
      });
      rowIndex++;
    }
  });
  const height = rowIndex === 0 ? 0 : top + margin + rowIndex * nodeH + (rowIndex - 1) * gapY;
  // the vertical lanes between columns (and outside the first and last)
  const lanes = Array.from({ length: cols + 1 }, (_, j) => margin + j * cell - gapX / 2);

  // edges: from the source's top to the target's bottom (sources sit below their targets). In the
  // next row up: a curve. Further up (wrapped rows between them): up to the channel above the
  // source's row, along it to a lane, up the lane to the channel below the target's row, then to
  // the target. A relation that does not point upwards (a cycle, a shortcut within a row) leaves
  // and enters by the sides
  const routes: Route[] = rels.map((r) => {
    const s = pos.get(r.from)!;
    const t = pos.get(r.to)!;
    const rs = rowOf.get(r.from)!;
    const rt = rowOf.get(r.to)!;
    const sx = s.x + nodeW / 2;
    const tx = t.x + nodeW / 2;
    if (rs > rt + 1) {
      const lane = lanes.reduce((best, x) =>
        Math.abs(x - sx) + Math.abs(x - tx) < Math.abs(best - sx) + Math.abs(best - tx) ? x : best,
      );
      const above = s.y - gapY / 2;
      const below = t.y + nodeH + gapY / 2;
      const points = [
        { x: sx, y: s.y },
        { x: sx, y: above },
        { x: lane, y: above },
        { x: lane, y: below },
        { x: tx, y: below },
        { x: tx, y: t.y + nodeH },
      ];
      const total = polylineLength(points);
      return {
        relation: r,
        path: `M${sx},${s.y} V${above} H${lane} V${below} H${tx} V${t.y + nodeH}`,
        at: (u) => alongPolyline(points, u),
        // halfway up the first stretch: just above the source
        preferred: gapY / 4 / total,
      };
    }
    if (rs > rt) {
      const p0 = { x: sx, y: s.y };
      const p3 = { x: tx, y: t.y + nodeH };
      const dy = Math.max(24, (p0.y - p3.y) / 2);
      const c1 = { x: p0.x, y: p0.y - dy };
      const c2 = { x: p3.x, y: p3.y + dy };
      return {
        relation: r,
        path: `M${p0.x},${p0.y} C${c1.x},${c1.y} ${c2.x},${c2.y} ${p3.x},${p3.y}`,
        at: (u) => bezier(p0, c1, c2, p3, u),
        preferred: 0.18,
      };
    }
    const leftToRight = s.x <= t.x;
    const p0 = { x: leftToRight ? s.x + nodeW : s.x, y: s.y + nodeH / 2 };
    const p3 = { x: leftToRight ? t.x : t.x + nodeW, y: t.y + nodeH / 2 };
    const bow = s.y === t.y ? -rowArc(Math.abs(p3.x - p0.x), nodeH) : 0;
    const c1 = { x: p0.x + (p3.x - p0.x) / 3, y: p0.y + bow };
    const c2 = { x: p0.x + (2 * (p3.x - p0.x)) / 3, y: p3.y + bow };
    return {
      relation: r,
      path: `M${p0.x},${p0.y} C${c1.x},${c1.y} ${c2.x},${c2.y} ${p3.x},${p3.y}`,
      at: (u) => bezier(p0, c1, c2, p3, u),
      preferred: s.y === t.y ? 0.5 : 0.3,
    };
  });

  const boxes: Rect[] = nodes.map((n) => ({
    x: n.x - LABEL_CLEARANCE,
    y: n.y - LABEL_CLEARANCE,
    w: nodeW + 2 * LABEL_CLEARANCE,
    h: nodeH + 2 * LABEL_CLEARANCE,
  }));
  const labels: Rect[] = [];
  const edges: PlacedEdge[] = routes.map((route) => {
    const size = labelSize(route.relation);
    const spot = labelSpot(route, size, boxes, labels);
    labels.push({ x: spot.x - size.width / 2, y: spot.y - size.height / 2, w: size.width, h: size.height });
    return { relation: route.relation, path: route.path, labelX: spot.x, labelY: spot.y };
  });

  return { width, height, nodes, edges };
}

/**
 * How far an edge within a row bows up (its control points' offset; the curve's top is 3/4 of it
 * above the row's middle): over the gap between the boxes, high enough that its top clears the row,
 * so a label there is drawn whole. In the 24 px gap between neighbours a label sat on both boxes,
 * which hid it ("60 %" read "00 %").
 */
function rowArc(dx: number, nodeH: number): number {
  return Math.max(28, dx / 4, (nodeH / 2 + LABEL_HEIGHT / 2 + LABEL_CLEARANCE) / 0.75);
}

/** An edge before its label is placed: its path, a point at each fraction of it, where its label would rather be. */
interface Route {
  relation: GraphRelation;
  path: string;
  at: (t: number) => Point;
  preferred: number;
}

type Rect = { x: number; y: number; w: number; h: number };

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Where on its edge a label goes: the preferred point if the label there covers no entity's box and
 * no label already placed, else the nearest such point along the edge; else the nearest point clear
 * of the boxes at least (two labels touching each other stay readable; a box drawn over one hides it).
 */
function labelSpot(
  route: Route,
  size: { width: number; height: number },
  boxes: Rect[],
  labels: Rect[],
): Point {
  const steps = Array.from({ length: 39 }, (_, i) => (i + 1) / 40);
  const candidates = [
    route.preferred,
    ...steps.sort((a, b) => Math.abs(a - route.preferred) - Math.abs(b - route.preferred)),
  ];
  const rectAt = (p: Point): Rect => ({
    x: p.x - size.width / 2,
    y: p.y - size.height / 2,
    w: size.width,
    h: size.height,
  });
  let clearOfBoxes: Point | null = null;
  for (const t of candidates) {
    const p = route.at(t);
    const r = rectAt(p);
    if (boxes.some((b) => overlaps(r, b))) continue;
    if (!labels.some((l) => overlaps(r, l))) return p;
    clearOfBoxes ??= p;
  }
  return clearOfBoxes ?? route.at(route.preferred);
}

function polylineLength(points: Point[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++)
    total += Math.hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
  return total;
}

/** The point at fraction `t` of a polyline's length. */
function alongPolyline(points: Point[], t: number): Point {
  let left = t * polylineLength(points);
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (left <= len && len > 0)
      return { x: a.x + ((b.x - a.x) * left) / len, y: a.y + ((b.y - a.y) * left) / len };
    left -= len;
  }
  return points[points.length - 1];
}

function push(map: Map<string, string[]>, key: string, value: string) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

type Point = { x: number; y: number };
function bezier(p0: Point, p1: Point, p2: Point, p3: Point, t: number): Point {
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return {
    x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
    y: a * p0.y + b * p1.y + c * p2.y + d * p3.y,
  };
}

/**
 * A share (0–100) as the language writes a percentage: `62.5%` in English, `62,5 %` in French (its
 * space a no-break one, so the sign never wraps away), at most two decimals.
 */
export function formatPercent(n: number, lang = 'en'): string {
  return new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', {
    style: 'percent',
    maximumFractionDigits: 2,
  }).format(n / 100);
}

/** A number written with a point, with the language's decimal separator (French: 0,85). */
export function withDecimalSeparator(text: string, lang: string): string {
  return lang === 'fr' ? text.replace('.', ',') : text;
}

/** The relation as the edge's label: ownership, else voting rights, else the role. */
export function relationLabel(
  r: GraphRelation,
  words: { shareholder: string; representative: string; voting: string; lang?: string },
): string {
  const pct = (n: number) => formatPercent(n, words.lang);
  if (r.ownership !== null) return pct(r.ownership);
  if (r.voting !== null) return `${pct(r.voting)} ${words.voting}`;
  if (r.roles.includes('legal_representative')) return r.position || words.representative;
  if (r.roles.includes('shareholder')) return words.shareholder;
  return r.position ?? '';
}

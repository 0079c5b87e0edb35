/**
 * The case's companies and individuals as an SVG graph: who owns or represents whom, with the
 * percentages on the edges (layout: graph-layout.ts). Each entity is a keyboard button (Tab, Enter
 * or Space) that selects it; the selected entity's relations are highlighted. The drawing keeps its
 * natural size and scrolls in its frame rather than shrinking.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLang } from '../../shell/i18n.tsx';
import {
  type GraphRelation,
  LABEL_HEIGHT,
  labelWidth,
  layoutGraph,
  NODE_HEIGHT,
  NODE_WIDTH,
  relationLabel,
} from './graph-layout.ts';
import { useCaseT } from './i18n.ts';
import type { CaseEntity, CheckEnvelope } from './types.ts';

export function caseRelations(entities: CaseEntity[]): GraphRelation[] {
  return entities.flatMap((e) =>
    e.data.relations.map((r) => ({
      id: r.id,
      from: e.id,
      to: r.to_company_id,
      ownership: r.ownership_percentage,
      voting: r.voting_rights_percentage,
      roles: r.roles,
      position: r.position,
    })),
  );
}

type Tally = Record<'approved' | 'rejected' | 'review' | 'pending', number>;
export function tallyChecks(checks: CheckEnvelope[]): Tally {
  const t: Tally = { approved: 0, rejected: 0, review: 0, pending: 0 };
  for (const c of checks) {
    if (c.status === 'approved') t.approved++;
    else if (c.status === 'rejected' || c.status === 'expired') t.rejected++;
    else if (c.status === 'need_review') t.review++;
    else t.pending++;
  }
  return t;
}

/**
 * An entity's checks for a screen reader, as the dots say them: the statuses it has, by count
 * ("Checks: 1 approved, 2 to review."), or "No checks." (the label ended "Checks: " with nothing
 * to hear, or a row of zeros).
 */
function checksSaid(
  tally: Tally,
  t: (key: string, vars?: Record<string, string | number>) => string,
): string {
  const said = (['approved', 'review', 'rejected', 'pending'] as const)
    .filter((k) => tally[k] > 0)
    .map((k) => t(`case.graph.checks.${k}`, { n: tally[k] }));
  return said.length ? t('case.graph.checksSummary', { list: said.join(', ') }) : t('case.graph.noChecks');
}

/** The nearest entity in an arrow key's direction. */
function neighbour<N extends { x: number; y: number }>(nodes: N[], from: N, key: string): N | undefined {
  const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  if (!dir) return undefined;
  const [dx, dy] = dir;
  let best: N | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const n of nodes) {
    const ax = n.x - from.x;
    const ay = n.y - from.y;
    const along = ax * dx + ay * dy;
    if (along <= 0) continue;
    const across = Math.abs(dx ? ay : ax);
    // up and down: the nearest row first, then the nearest in it; left and right: the same row first
    const score = dx ? across * 10_000 + along : along * 10_000 + across;
    // a tie (two entities as near) goes to the left one
    if (score < bestScore - 0.5 || (best && Math.abs(score - bestScore) <= 0.5 && n.x < best.x)) {
      bestScore = score;
      best = n;
    }
  }
  return best;
}

/** An individual's first relation as its subtitle: "25 % · Subsidiary SARL". */
function firstRelation(
  e: CaseEntity,
  relations: GraphRelation[],
  names: Map<string, string>,
  words: Parameters<typeof relationLabel>[1],
): string {
  const r = relations.find((x) => x.from === e.id);
  return r ? [relationLabel(r, words), names.get(r.to)].filter(Boolean).join(' · ') : '';
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** What an entity's text area leaves of its width: the icon on the left, a margin on the right. */
const TEXT_INSET = 48;
/** The widest an entity grows to show a long name whole; past it the name is cut with an ellipsis. */
const MAX_NODE_WIDTH = 300;
let measurer: CanvasRenderingContext2D | null | undefined;

/** The width of `text` in `font` (the CSS shorthand), or null where the page cannot measure. */
function textWidth(text: string, font: string): number | null {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return null;
  measurer.font = font;
  return measurer.measureText(text).width;
}

/**
 * The entities' width: the usual one, grown (up to MAX_NODE_WIDTH, and the frame's width) so the
 * longest name or subtitle fits. Every entity has the same width: the rows keep their alignment. A long name
 * was cut at 156 px with room to spare on either side ("Elvis Angus Logan…" alone in its row).
 */
function nodeWidthFor(
  texts: { names: string[]; subtitles: string[] },
  fonts: { name: string; sub: string } | null,
  frameWidth: number,
): number {
  if (!fonts) return NODE_WIDTH;
  // the subtitles too: "CEO · Legal representative" was cut on a phone with room to spare
  const widest = Math.max(
    0,
    ...texts.names.map((n) => textWidth(n, fonts.name) ?? 0),
    ...texts.subtitles.map((n) => textWidth(n, fonts.sub) ?? 0),
  );
  const room = Math.max(NODE_WIDTH, Math.min(MAX_NODE_WIDTH, frameWidth - 32));
  return Math.min(room, Math.max(NODE_WIDTH, Math.ceil(widest) + TEXT_INSET + 8));
}

/** `text` shortened with an ellipsis to fit `width` pixels in `font` (the CSS shorthand). */
function fitText(text: string, font: string, width: number): string {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return clip(text, 20);
  measurer.font = font;
  if (measurer.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measurer.measureText(`${text.slice(0, mid)}…`).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

export function CaseGraph(props: {
  entities: CaseEntity[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const t = useCaseT();
  const { lang } = useLang();
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1100);
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(NODE_WIDTH + 32, el.clientWidth));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const relations = useMemo(() => caseRelations(props.entities), [props.entities]);
  // the fonts the page's CSS gives the names and subtitles, read once drawn, to fit the texts
  const [fonts, setFonts] = useState<{ name: string; sub: string } | null>(null);
  useLayoutEffect(() => {
    if (fonts) return;
    const name = frame.current?.querySelector('.case-graph-name');
    const sub = frame.current?.querySelector('.case-graph-sub');
    if (name && sub) setFonts({ name: getComputedStyle(name).font, sub: getComputedStyle(sub).font });
  });
  const words = useMemo(
    () => ({
      shareholder: t('case.graph.shareholder'),
      representative: t('case.graph.representative'),
      voting: t('case.graph.votes'),
      lang,
    }),
    [t, lang],
  );
  // under the name: a company's country and number, an individual's position and roles
  const subtitles = useMemo(() => {
    const names = new Map(props.entities.map((e) => [e.id, e.name]));
    return new Map(
      props.entities.map((e) => [
        e.id,
        e.kind === 'company'
          ? [e.main ? t('case.graph.main') : null, e.data.country, e.data.registration_number]
              .filter(Boolean)
              .join(' · ')
          : [e.data.position, ...e.data.roles.map((r) => t(`case.role.${r}`))].filter(Boolean).join(' · ') ||
            firstRelation(e, relations, names, words) ||
            t('case.kind.individual'),
      ]),
    );
  }, [props.entities, relations, words, t]);
  const nodeWidth = useMemo(
    () =>
      nodeWidthFor(
        { names: props.entities.map((e) => e.name), subtitles: [...subtitles.values()] },
        fonts,
        width,
      ),
    [props.entities, subtitles, fonts, width],
  );
  const layout = useMemo(
    () =>
      layoutGraph(
        props.entities.map((e) => ({ ...e, main: e.main })),
        relations,
        {
          maxWidth: width,
          nodeWidth,
          // each label's own size: the layout keeps it clear of the boxes
          labelSize: (r) => ({ width: labelWidth(clip(relationLabel(r, words), 20)), height: LABEL_HEIGHT }),
        },
      ),
    [props.entities, relations, width, nodeWidth, words],
  );
  const fit = (text: string, which: 'name' | 'sub') =>
    fonts?.[which]
      ? fitText(text, fonts[which], nodeWidth - TEXT_INSET)
      : clip(text, which === 'name' ? 18 : 24);
  const selected = props.selectedId;
  // one stop in the Tab order (the entity last focused, else the selected one); arrows move inside
  const [focused, setFocused] = useState<string | null>(null);
  const focusable = [focused, selected, layout.nodes[0]?.entity.id].find(
    (id) => id && layout.nodes.some((n) => n.entity.id === id),
  );
  const linked = new Set(
    relations.filter((r) => r.from === selected || r.to === selected).flatMap((r) => [r.from, r.to]),
  );

  if (props.entities.length === 0) return <p className="case-empty">{t('case.graph.empty')}</p>;
  return (
    <div className="case-graph" ref={frame}>
      {/* biome-ignore lint/a11y/useSemanticElements: the drawing groups its entity buttons; a fieldset cannot live in an SVG */}
      <svg
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label={t('case.graph.label')}
        data-testid="case-graph"
      >
        <defs>
          {/* the text area of an entity (in the entity's own coordinates): a long name is cut at its edge */}
          <clipPath id="case-graph-text" clipPathUnits="userSpaceOnUse">
            <rect x={36} y={0} width={nodeWidth - 44} height={NODE_HEIGHT} />
          </clipPath>
          <marker
            id="case-graph-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" className="case-graph-arrowhead" />
          </marker>
        </defs>
        <g className="case-graph-edges">
          {layout.edges.map((e) => {
            const on = selected !== null && (e.relation.from === selected || e.relation.to === selected);
            return (
              <path
                key={e.relation.id}
                d={e.path}
                className={on ? 'case-graph-edge is-on' : 'case-graph-edge'}
                markerEnd="url(#case-graph-arrow)"
              />
            );
          })}
        </g>
        <g className="case-graph-nodes">
          {layout.nodes.map((n) => {
            const e = n.entity as CaseEntity;
            const tally = tallyChecks(e.data.checks);
            const classes = ['case-graph-node', `is-${e.kind}`];
            if (e.main) classes.push('is-main');
            if (e.id === selected) classes.push('is-selected');
            else if (selected && linked.has(e.id)) classes.push('is-linked');
            if (!e.data.is_relevant) classes.push('is-not-relevant');
            const sub = subtitles.get(e.id) ?? '';
            const label = t('case.graph.entityLabel', {
              kind: e.kind === 'company' ? t('case.kind.company') : t('case.kind.individual'),
              name: e.name,
              checks: checksSaid(tally, t),
            });
            return (
              // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it has the role, focus and keys of one
              <g
                key={e.id}
                className={classes.join(' ')}
                transform={`translate(${n.x},${n.y})`}
                role="button"
                tabIndex={e.id === focusable ? 0 : -1}
                aria-pressed={e.id === selected}
                aria-label={label}
                data-entity-id={e.id}
                onClick={() => props.onSelect(e.id)}
                onFocus={() => setFocused(e.id)}
                onKeyDown={(ev) => {
                  if (ev.key === 'Enter' || ev.key === ' ') {
                    ev.preventDefault();
                    props.onSelect(e.id);
                    return;
                  }
                  const next = neighbour(layout.nodes, n, ev.key);
                  if (next) {
                    ev.preventDefault();
                    frame.current
                      ?.querySelector<SVGGElement>(`[data-entity-id="${next.entity.id}"]`)
                      ?.focus();
                  }
                }}
              >
                <title>{e.name}</title>
                <rect
                  width={nodeWidth}
                  height={NODE_HEIGHT}
                  rx={e.kind === 'company' ? 6 : 30}
                  className="case-graph-box"
                />
                <rect
                  x={-3}
                  y={-3}
                  width={nodeWidth + 6}
                  height={NODE_HEIGHT + 6}
                  rx={e.kind === 'company' ? 8 : 32}
                  className="case-graph-focus"
                />
                {e.kind === 'company' ? (
                  <path
                    d="M12,38 v-18 h8 v-6 h10 v24 z M15,24 h2 M15,30 h2 M24,19 h2 M24,25 h2 M24,31 h2"
                    className="case-graph-icon"
                  />
                ) : (
                  <path
                    d="M22,22 m-5,0 a5,5 0 1,0 10,0 a5,5 0 1,0 -10,0 M13,40 q9,-14 18,0"
                    className="case-graph-icon"
                  />
                )}
                <g clipPath="url(#case-graph-text)">
                  <text x={40} y={19} className="case-graph-name">
                    {fit(e.name, 'name')}
                  </text>
                  <text x={40} y={34} className="case-graph-sub">
                    {fit(sub, 'sub')}
                  </text>
                </g>
                <g transform={`translate(40,${NODE_HEIGHT - 8})`} className="case-graph-tally">
                  {(['approved', 'review', 'rejected', 'pending'] as const)
                    .filter((k) => tally[k] > 0)
                    .map((k, i) => (
                      <g key={k} transform={`translate(${i * 30},0)`}>
                        <circle r={4} cx={4} cy={-3} className={`case-dot is-${k}`} />
                        <text x={11} y={0} className="case-graph-count">
                          {tally[k]}
                        </text>
                      </g>
                    ))}
                </g>
              </g>
            );
          })}
        </g>
        {/* after the entities: a label is never under a box (the layout keeps them apart too) */}
        <g className="case-graph-labels">
          {layout.edges.map((e) => {
            const text = relationLabel(e.relation, words);
            if (!text) return null;
            const w = labelWidth(clip(text, 20));
            return (
              <g
                key={e.relation.id}
                transform={`translate(${e.labelX},${e.labelY})`}
                data-testid="case-graph-label"
              >
                <rect
                  x={-w / 2}
                  y={-LABEL_HEIGHT / 2}
                  width={w}
                  height={LABEL_HEIGHT}
                  rx={LABEL_HEIGHT / 2}
                  className="case-graph-label-bg"
                />
                <text textAnchor="middle" dy="4" className="case-graph-label">
                  {clip(text, 20)}
                </text>
              </g>
            );
          })}
        </g>
      </svg>
    </div>
  );
}

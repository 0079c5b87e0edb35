/**
 * The case page's graph layout (web/console/features/case/graph-layout.ts), a pure function: levels
 * from the main company, wrapping, no overlap, cycles and strays placed, readable at 50 entities.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type GraphEntity,
  type GraphRelation,
  layoutGraph,
  NODE_HEIGHT,
  NODE_WIDTH,
  relationLabel,
} from '../web/console/features/case/graph-layout.ts';

const co = (id: string, main = false): GraphEntity => ({ id, kind: 'company', name: id, main });
const ind = (id: string): GraphEntity => ({ id, kind: 'individual', name: id });
let n = 0;
const rel = (
  from: string,
  to: string,
  ownership: number | null = null,
  roles = ['shareholder'],
): GraphRelation => ({
  id: `r${++n}`,
  from,
  to,
  ownership,
  voting: null,
  roles,
  position: null,
});

function assertNoOverlap(nodes: { x: number; y: number }[]) {
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i];
      const b = nodes[j];
      const apart = Math.abs(a.x - b.x) >= NODE_WIDTH || Math.abs(a.y - b.y) >= NODE_HEIGHT;
      assert.ok(apart, `nodes ${i} and ${j} overlap`);
    }
}

type P = { x: number; y: number };
/** The corners of an `M x,y V y H x ...` path. */
function polyline(d: string): P[] {
  const [, x0, y0] = /^M([\d.-]+),([\d.-]+)/.exec(d)!;
  const points: P[] = [{ x: Number(x0), y: Number(y0) }];
  for (const [, cmd, v] of d.matchAll(/([VH])([\d.-]+)/g)) {
    const last = points[points.length - 1];
    points.push(cmd === 'V' ? { x: last.x, y: Number(v) } : { x: Number(v), y: last.y });
  }
  return points;
}
/** An axis-aligned segment strictly inside a node's box somewhere. */
function segmentHitsBox(a: P, b: P, n: { x: number; y: number }): boolean {
  const [x1, x2] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
  const [y1, y2] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
  return x2 > n.x && x1 < n.x + NODE_WIDTH && y2 > n.y && y1 < n.y + NODE_HEIGHT;
}

describe('case graph layout', () => {
  test('the main company on top, owners below their company, percentages on the edges', () => {
    const g = layoutGraph(
      [ind('ada'), co('holding'), co('acme', true), ind('bob')],
      [rel('holding', 'acme', 70), rel('ada', 'acme', 30), rel('bob', 'holding', 100)],
      { maxWidth: 1200 },
    );
    const at = (id: string) => g.nodes.find((x) => x.entity.id === id)!;
    assert.equal(at('acme').level, 0);
    assert.equal(at('holding').level, 1);
    assert.equal(at('ada').level, 1);
    assert.equal(at('bob').level, 2);
    assert.ok(at('acme').y < at('holding').y && at('holding').y < at('bob').y);
    // companies before individuals in a level
    assert.ok(at('holding').x < at('ada').x);
    assert.equal(g.edges.length, 3);
    // every edge starts at its source's top and ends at its target's bottom
    const e = g.edges.find((x) => x.relation.from === 'bob')!;
    assert.match(e.path, new RegExp(`^M${at('bob').x + NODE_WIDTH / 2},${at('bob').y} `));
    assert.ok(e.path.endsWith(`${at('holding').x + NODE_WIDTH / 2},${at('holding').y + NODE_HEIGHT}`));
    assert.ok(g.width <= 1200 && g.height > 0);
  });

  test('50 entities wrap onto rows within the width, at full size, without overlap', () => {
    const entities = [co('main', true)];
    const relations: GraphRelation[] = [];
    for (let i = 0; i < 9; i++) {
      entities.push(co(`sub${i}`));
      relations.push(rel(`sub${i}`, 'main', 10));
    }
    for (let i = 0; i < 40; i++) {
      entities.push(ind(`p${i}`));
      relations.push(rel(`p${i}`, `sub${i % 9}`, 25));
    }
    const g = layoutGraph(entities, relations, { maxWidth: 1200 });
    assert.equal(g.nodes.length, 50);
    assert.ok(g.width <= 1200, `width ${g.width}`);
    assertNoOverlap(g.nodes);
    for (const node of g.nodes) assert.ok(node.x >= 0 && node.x + NODE_WIDTH <= g.width);
    // the individuals are ordered by their company: the owners of sub0 come before those of sub8
    const xs = (id: string) => {
      const p = g.nodes.find((x) => x.entity.id === id)!;
      return p.y * 10_000 + p.x;
    };
    assert.ok(xs('p0') < xs('p8'));
    assert.equal(g.edges.length, 49);
    // an edge from a lower wrapped row goes up the gaps: none of its segments crosses an entity
    const laned = g.edges.filter((e) => e.path.includes('V'));
    assert.ok(laned.length > 0);
    for (const e of laned) {
      const points = polyline(e.path);
      for (const n of g.nodes) {
        if (n.entity.id === e.relation.from || n.entity.id === e.relation.to) continue;
        for (let i = 1; i < points.length; i++)
          assert.ok(
            !segmentHitsBox(points[i - 1], points[i], n),
            `${e.relation.from} crosses ${n.entity.id}`,
          );
      }
    }
  });

  test('a tree not reaching the main company, a cycle and entities without relations are all placed', () => {
    const g = layoutGraph(
      [co('acme', true), co('other'), ind('owner'), co('c1'), co('c2'), ind('alone')],
      [rel('owner', 'other', 50), rel('c1', 'c2'), rel('c2', 'c1')],
      { maxWidth: 800 },
    );
    assert.equal(g.nodes.length, 6);
    const at = (id: string) => g.nodes.find((x) => x.entity.id === id)!;
    assert.equal(at('other').level, 0);
    assert.equal(at('owner').level, 1);
    assert.equal(at('alone').isolated, true);
    assert.equal(at('acme').isolated, false);
    assert.ok(at('alone').level > at('owner').level);
    assertNoOverlap(g.nodes);
    // the cycle's two edges both drawn
    assert.equal(g.edges.filter((e) => ['c1', 'c2'].includes(e.relation.from)).length, 2);
  });

  test('a narrow width still shows one entity per row; nothing at all is an empty drawing', () => {
    const g = layoutGraph([co('a', true), ind('b'), ind('c')], [rel('b', 'a'), rel('c', 'a')], {
      maxWidth: 100,
    });
    assert.equal(new Set(g.nodes.map((x) => x.y)).size, 3);
    const empty = layoutGraph([], [], { maxWidth: 1000 });
    assert.deepEqual([empty.nodes.length, empty.height], [0, 0]);
  });

  test('edge labels: ownership, else voting rights, else the role or position', () => {
    const words = { shareholder: 'shareholder', representative: 'representative', voting: 'votes' };
    // English writes the sign against the number (console walk: it read "60 %", the French way)
    assert.equal(relationLabel(rel('a', 'b', 70), words), '70%');
    assert.equal(relationLabel(rel('a', 'b', 12.5), words), '12.5%');
    // in French with the decimal comma and a no-break space before the sign (which one, U+00A0 or
    // U+202F, is the ICU's choice)
    assert.match(relationLabel(rel('a', 'b', 12.5), { ...words, lang: 'fr' }), /^12,5[\u00a0\u202f]%$/);
    assert.match(relationLabel(rel('a', 'b', 33.333), { ...words, lang: 'fr' }), /^33,33[\u00a0\u202f]%$/);
    assert.equal(relationLabel({ ...rel('a', 'b'), voting: 40 }, words), '40% votes');
    assert.equal(relationLabel(rel('a', 'b', null, ['legal_representative']), words), 'representative');
    assert.equal(
      relationLabel({ ...rel('a', 'b', null, ['legal_representative']), position: 'CEO' }, words),
      'CEO',
    );
    assert.equal(relationLabel(rel('a', 'b', null), words), 'shareholder');
  });

  test("no edge's label lies on an entity's box or outside the drawing (a 60 % beside its holding read 00 %)", () => {
    const cases: [string, GraphEntity[], GraphRelation[]][] = [
      // the holding's owner also represents the main company: she sits beside the holding
      [
        'beside',
        [co('M', true), co('H'), ind('I')],
        [rel('H', 'M', 100), rel('I', 'H', 60), rel('I', 'M', null, ['legal_representative'])],
      ],
      // the main company owns a company beside it on the top row
      ['top row', [co('M', true), co('H'), ind('I')], [rel('M', 'H', 100), rel('I', 'H', 60)]],
      ['chain', [co('M', true), co('H'), ind('I')], [rel('H', 'M', 100), rel('I', 'H', 60)]],
    ];
    for (const [name, entities, relations] of cases)
      for (const maxWidth of [400, 1000])
        for (const nodeWidth of [NODE_WIDTH, 300]) {
          const layout = layoutGraph(entities, relations, { maxWidth, nodeWidth });
          for (const e of layout.edges) {
            const label = { x: e.labelX - 24, y: e.labelY - 10, w: 48, h: 20 };
            assert.ok(
              label.y >= 0 && label.y + label.h <= layout.height,
              `${name}: label of ${e.relation.id} cut off`,
            );
            for (const n of layout.nodes) {
              const apart =
                label.x + label.w <= n.x ||
                n.x + nodeWidth <= label.x ||
                label.y + label.h <= n.y ||
                n.y + NODE_HEIGHT <= label.y;
              assert.ok(
                apart,
                `${name} (${maxWidth}, ${nodeWidth}): the label of ${e.relation.id} lies on ${n.entity.id}`,
              );
            }
          }
        }
  });
});

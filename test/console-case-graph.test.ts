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
    assert.equal(relationLabel(rel('a', 'b', 70), words), '70 %');
    assert.equal(relationLabel(rel('a', 'b', 12.5), words), '12.5 %');
    assert.equal(relationLabel({ ...rel('a', 'b'), voting: 40 }, words), '40 % votes');
    assert.equal(relationLabel(rel('a', 'b', null, ['legal_representative']), words), 'representative');
    assert.equal(
      relationLabel({ ...rel('a', 'b', null, ['legal_representative']), position: 'CEO' }, words),
      'CEO',
    );
    assert.equal(relationLabel(rel('a', 'b', null), words), 'shareholder');
  });
});

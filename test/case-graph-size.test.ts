import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newWorkspace } from './helpers/harness.ts';

/**
 * A case body within the documented limits (500 companies, 500 individuals, relations to distinct
 * companies) carries more values than one SQL statement may bind (32,767 on the embedded database's
 * wire code, 65,535 on PostgreSQL's). It used to be a 500 on both databases; so did a graph of
 * 15,000 relations and more, until its values were no longer spread into one call.
 */
describe('case graph size', () => {
  test('a graph whose values a single spread cannot hold (20,000 relations) is stored, not a 500', async () => {
    // 500 individuals with 40 relations each: about 180,000 bound values, which a spread into
    // push() overflowed the stack with (RangeError → 500) before the chunked insert was chosen
    const api = await newWorkspace();
    const companies = [
      { ref: 'main', name: 'Main SA', country: 'FR' },
      ...Array.from({ length: 199 }, (_, i) => ({
        ref: `c${i}`,
        type: 'affiliated',
        name: `Affiliate ${i}`,
        relations: [{ roles: ['shareholder'], ownership_percentage: 0.1 }],
      })),
    ];
    const individuals = Array.from({ length: 500 }, (_, i) => ({
      first_name: `First${i}`,
      last_name: `Last${i}`,
      relations: Array.from({ length: 40 }, (_, j) => ({
        source_company_ref: `c${(i + j) % 199}`,
        roles: ['shareholder'],
        ownership_percentage: 0.01,
      })),
    }));
    const res = await api.post('/v1/cases', { name: 'Many relations', companies, individuals });
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 500));
    const relations = res.body.individuals.reduce((n: number, p: any) => n + p.relations.length, 0);
    assert.equal(relations, 500 * 40);
    const read = await api.get(`/v1/cases/${res.body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.individuals[499].relations.length, 40);
  });

  test('the largest graph the limits allow is stored whole: 201, every entity and relation readable', async () => {
    const api = await newWorkspace();
    const companies = [
      { ref: 'main', name: 'Main SA', country: 'FR' },
      ...Array.from({ length: 499 }, (_, i) => ({
        ref: `c${i}`,
        type: 'affiliated',
        name: `Affiliate ${i}`,
        registration_number: `R${i}`,
        relations: [{ roles: ['shareholder'], ownership_percentage: 0.1 }],
      })),
    ];
    // each individual relates to the main company and to ten affiliates: 5,500 relations
    const individuals = Array.from({ length: 500 }, (_, i) => ({
      ref: `p${i}`,
      first_name: `First${i}`,
      last_name: `Last${i}`,
      birth_date: '1980-01-02',
      relations: [
        { roles: ['legal_representative'], position: 'Director' },
        ...Array.from({ length: 10 }, (_, j) => ({
          source_company_ref: `c${(i + j * 37) % 499}`,
          ownership_percentage: 1,
        })),
      ],
    }));
    const res = await api.post('/v1/cases', {
      name: 'Large graph',
      external_id: 'large-graph',
      companies,
      individuals,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 500));
    assert.equal(res.body.companies.length, 500);
    assert.equal(res.body.individuals.length, 500);
    const relationCount = (c: any) =>
      [...c.companies, ...c.individuals].reduce((n: number, e: any) => n + e.relations.length, 0);
    assert.equal(relationCount(res.body), 499 + 500 * 11);
    // the response keeps the request's order and its values
    assert.equal(res.body.companies[0].type, 'main');
    assert.equal(res.body.companies[499].registration_number, 'R498');
    assert.equal(res.body.individuals[499].birth_date, '1980-01-02');
    assert.equal(res.body.individuals[0].position, 'Director');
    const mainId = res.body.companies[0].id;
    assert.deepEqual(
      res.body.individuals[3].relations.map((r: any) => r.to_company_id).sort(),
      [
        mainId,
        ...Array.from({ length: 10 }, (_, j) => res.body.companies[1 + ((3 + j * 37) % 499)].id),
      ].sort(),
    );

    const read = await api.get('/v1/cases/large-graph');
    assert.equal(read.status, 200);
    assert.equal(read.body.companies.length, 500);
    assert.equal(read.body.individuals.length, 500);
    assert.equal(relationCount(read.body), 499 + 500 * 11);
  });

  test('a refused large graph stores nothing', async () => {
    const api = await newWorkspace();
    const individuals = Array.from({ length: 500 }, (_, i) => ({
      first_name: `F${i}`,
      last_name: `L${i}`,
      relations: Array.from({ length: 12 }, (_, j) => ({ source_company_ref: `c${j}` })),
    }));
    const companies = [
      { ref: 'main', name: 'Main' },
      ...Array.from({ length: 12 }, (_, j) => ({ ref: `c${j}`, type: 'affiliated', name: `C${j}` })),
      // the same external_id twice is refused by the database, after every row was sent
    ];
    const first = await api.post('/v1/cases', { name: 'taken', external_id: 'dup-large' });
    assert.equal(first.status, 201);
    const res = await api.post('/v1/cases', {
      name: 'Large',
      external_id: 'dup-large',
      companies,
      individuals,
    });
    assert.equal(res.status, 409, JSON.stringify(res.body).slice(0, 300));
    const list = await api.get('/v1/companies?limit=100');
    assert.equal(list.body.pagination.count, 0);
    const people = await api.get('/v1/individuals?limit=100');
    assert.equal(people.body.pagination.count, 0);
  });
});

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ScreeningNotReadyError, ScreeningRegistry } from '../../src/screening/engine/registry.ts';
import { emptyEntity, type ListLoadResult } from '../../src/screening/entity.ts';
import { loadReferenceDirectory } from '../../src/screening/lists/load-directory.ts';
import { REFERENCE_DIR } from './reference.ts';

function list(version: string, names: string[]): ListLoadResult {
  return {
    source: 'test',
    version,
    entities: names.map((n, i) => emptyEntity('test', String(i), 'person', n)),
    malformed: 0,
    errors: [],
  };
}

describe('reference directory loading', () => {
  test('loads every known list in the shared directory with content versions', async () => {
    const results = await loadReferenceDirectory(REFERENCE_DIR);
    assert.deepEqual(
      results.map((r) => [r.source, r.origin]),
      [
        ['ofac_sdn', 'sanctions/ofac-sdn-2019'],
        ['un_sc', 'sanctions/un/consolidated.xml'],
        ['ftm', 'sanctions/ftm-samples/t1.ftm.jsonl'],
        ['ftm', 'sanctions/ftm-samples/zala.ftm.jsonl'],
      ],
    );
    const again = await loadReferenceDirectory(new URL(`file://${REFERENCE_DIR}/`));
    assert.deepEqual(
      again.map((r) => r.version),
      results.map((r) => r.version),
    );
    assert.match(results[1].version, /^2026-02-27\//);
  });

  test('a directory with EU and UK files, and an empty directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'screening-'));
    try {
      assert.deepEqual(await loadReferenceDirectory(dir), []);
      await mkdir(join(dir, 'sanctions', 'eu'), { recursive: true });
      await mkdir(join(dir, 'sanctions', 'uk'), { recursive: true });
      await writeFile(
        join(dir, 'sanctions', 'eu', 'fsf.csv'),
        'Entity_LogicalId;Entity_SubjectType;NameAlias_WholeName\n1;person;Ivan Testov\n',
      );
      await writeFile(
        join(dir, 'sanctions', 'uk', 'ukl.csv'),
        'Report Date: 2026-03-01\nName 6,Name 1,Group Type,Name type,Group ID\nTESTOVA,Olga,Individual,Primary name,X1\n',
      );
      const r = await loadReferenceDirectory(dir);
      assert.deepEqual(
        r.map((x) => [x.source, x.entities.length]),
        [
          ['eu_fsf', 1],
          ['uk_hmt', 1],
        ],
      );
      const reg = new ScreeningRegistry();
      await reg.load(dir);
      assert.equal(reg.search({ name: 'Olga Testova' })[0].entity.source, 'uk_hmt');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ScreeningRegistry', () => {
  test('throws before the first load', () => {
    const reg = new ScreeningRegistry();
    assert.equal(reg.ready, false);
    assert.throws(() => reg.search({ name: 'x' }), ScreeningNotReadyError);
  });

  test('replace swaps to a new list version without affecting held snapshots', () => {
    const reg = new ScreeningRegistry();
    reg.replace([list('v1', ['Boris Oldname'])]);
    const old = reg.snapshot!;
    assert.equal(reg.search({ name: 'Boris Oldname' }).length, 1);
    reg.replace([list('v2', ['Natasha Newname'])]);
    assert.deepEqual(
      reg.versions.map((v) => v.version),
      ['v2'],
    );
    assert.equal(reg.search({ name: 'Boris Oldname' }).length, 0);
    assert.equal(reg.search({ name: 'Natasha Newname' }).length, 1);
    // A search that grabbed the old snapshot keeps a consistent view.
    assert.equal(old.lists[0].version, 'v1');
    assert.equal(old.index.entities[0].name, 'Boris Oldname');
  });

  test('loads the shared reference directory', async () => {
    const reg = new ScreeningRegistry();
    const versions = await reg.load(REFERENCE_DIR);
    assert.equal(reg.ready, true);
    assert.deepEqual(
      versions.map((v) => v.source),
      ['ofac_sdn', 'un_sc', 'ftm', 'ftm'],
    );
    assert.match(reg.snapshot!.legalForms ?? '', /^iso-20275-2026-02-19\.csv\/sha256:/);
    assert.ok(reg.search({ name: 'Saddam Hussein al-Tikriti' }).some((r) => r.entity.id === 'IQi.001'));
  });
});

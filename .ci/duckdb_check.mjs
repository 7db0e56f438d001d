// Checks solcat's Parquet files with DuckDB; see duckdb_check.sh.
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';

const want = Object.fromEntries(readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => l.split('=')));
const db = await (await DuckDBInstance.create(':memory:')).connect();
const rows = async (sql) => (await db.runAndReadAll(sql)).getRowObjectsJson();
let failed = 0;
const check = (what, got, expected) => {
  const ok = JSON.stringify(got) === JSON.stringify(expected);
  console.log(`${ok ? 'ok' : 'FAILED'}: ${what}: ${JSON.stringify(got)}${ok ? '' : ` (want ${JSON.stringify(expected)})`}`);
  if (!ok) failed++;
};
const count = async (from) => (await rows(`SELECT count(*) AS n FROM ${from}`))[0].n;
const types = async (file) => Object.fromEntries((await rows(`DESCRIBE SELECT * FROM '${file}'`)).map((r) => [r.column_name, r.column_type]));
const meta = async (file) => Object.fromEntries((await rows(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${file}')`)).map((r) => [r.k, r.v]));

check('magic:4 rows', await count("'m4.parquet'"), want.m4);
check('queens:10 classes rows', await count("'q10c.parquet'"), want.q10c);
check('queens:10 filtered rows', await count("'q10f.parquet'"), want.q10f);
const cellTypes = (prefix, names) => Object.fromEntries(names.map((n) => [prefix + n, 'UTINYINT']));
const grid = (n) => Array.from({ length: n * n }, (_, i) => `${Math.floor(i / n) + 1}c${(i % n) + 1}`);
const rows10 = Array.from({ length: 10 }, (_, i) => String(i + 1));
check('solution columns', await types('m4.parquet'),
  { id: 'BIGINT', class: 'UINTEGER', orbit: 'UTINYINT', symmetry: 'VARCHAR', props: 'VARCHAR[]', ...cellTypes('r', grid(4)) });
check('class columns', await types('q10c.parquet'),
  { class: 'UINTEGER', orbit: 'UTINYINT', matching: 'UTINYINT', props: 'VARCHAR[]', ...cellTypes('row', rows10) });
check('list layout columns', await types('m4list.parquet'),
  { id: 'BIGINT', class: 'BIGINT', orbit: 'INTEGER', symmetry: 'VARCHAR', props: 'VARCHAR[]', cells: 'INTEGER[]' });
check('queens:12 rows', await count("'q12.parquet'"), want.q12);
check('queens:12 row9=5 (one cell)', await count("'q12.parquet' WHERE row9 = 5"), want.q12_r9);
check('queens:12 row9=5, row3=7 (two cells)', await count("'q12.parquet' WHERE row9 = 5 AND row3 = 7"), want.q12_r9_r3);
check('queens:12 orbit 4', await count("'q12.parquet' WHERE orbit = 4"), want.q12_orbit4);
check('magic:4 r2c2=16, pandiagonal', await count("'m4.parquet' WHERE r2c2 = 16 AND list_contains(props, 'pandiagonal')"), want.m4_center);
check('queens cells are 1-based', (await rows("SELECT min(row1) AS lo, max(row12) AS hi FROM 'q12.parquet'"))[0], { lo: 1, hi: 12 });
check('magic rows sum to the magic constant', await count("'m4.parquet' WHERE r1c1 + r1c2 + r1c3 + r1c4 <> 34 OR r1c1 + r2c2 + r3c3 + r4c4 <> 34"), '0');
const stats = await rows("SELECT stats_min_value AS lo, stats_max_value AS hi FROM parquet_metadata('q12.parquet') WHERE path_in_schema = 'row9'");
check('column statistics', stats[0], { lo: '1', hi: '12' });
const m12 = await meta('q12.parquet');
check('queens:12 metadata', [m12['solcat.puzzle'], m12['solcat.cells'], m12['solcat.version'], m12['solcat.catalog_schema'] !== '0'], ['queens:12', 'columns', want.version, true]);
check('queens:12 column notes', Object.keys(JSON.parse(m12['solcat.columns'])).slice(4, 7), ['props', 'row1', 'row2']);
const m = await meta('m4.parquet');
check('magic:4 metadata', [m['solcat.puzzle'], m['solcat.rows'], m['solcat.filter'], m['solcat.content_hash']],
  ['magic:4', 'solutions', '', want.hash_m4]);
check('magic:4 column notes', Object.keys(JSON.parse(m['solcat.columns'])), ['id', 'class', 'orbit', 'symmetry', 'props', ...grid(4).map((c) => 'r' + c)]);
const c = await meta('q10c.parquet');
check('queens:10 classes metadata', [c['solcat.puzzle'], c['solcat.rows'], c['solcat.content_hash']], ['queens:10', 'classes', want.hash_q10]);
check('filter recorded', (await meta('q10f.parquet'))['solcat.filter'], 'cell 1,1=1');
const createdBy = (await rows("SELECT created_by FROM parquet_file_metadata('m4.parquet')"))[0].created_by;
check('created_by', createdBy.startsWith(`solcat version ${want.version} (build `) && createdBy.endsWith(')'), true);
check('schema name', (await rows("SELECT name FROM parquet_schema('q10c.parquet') LIMIT 1"))[0].name, 'queens_10_classes');
check('cells read as numbers', (await rows("SELECT sum(list_sum(cells)) AS s FROM 'm4list.parquet'"))[0].s, String(7040 * 136));
check('properties as lists', await count("'m4.parquet' WHERE list_contains(props, 'pandiagonal')"), '384');
check('range: rows of queens:8', await count("'q4to8.parquet' WHERE puzzle = 'queens:8'"), want.q8);
check('range: row3=3 on queens:8', await count("'q4to8.parquet' WHERE puzzle = 'queens:8' AND row3 = 3"), want.q8_r3);
check('range: cells beyond a puzzle are null', await count("'q4to8.parquet' WHERE puzzle = 'queens:4' AND (row5 IS NOT NULL OR row4 IS NULL)"), '0');
check('range: puzzle metadata', (await meta('q4to8.parquet'))['solcat.puzzle'], 'queens:4-8');
const mr = "read_parquet('mrange/*/*.parquet', hive_partitioning = true, union_by_name = true)";
check('range by puzzle: magic:3 rows', await count(`${mr} WHERE puzzle = 'magic:3'`), want.m3);
check('range by puzzle: magic:4 rows', await count(`${mr} WHERE puzzle = 'magic:4'`), want.m4);
check('classes by orbit', await count("read_parquet('q10cpart/*/*.parquet', hive_partitioning = true) WHERE orbit = 4"), want.q10_orbit4_classes);
const part = "read_parquet('m4part/*/*.parquet', hive_partitioning = true)";
check('partitions together', await count(part), want.m4);
check('no rows, every column', [await count("'q2.parquet'"), Object.keys(await types('q2.parquet'))],
  ['0', ['id', 'class', 'orbit', 'symmetry', 'props', 'row1', 'row2']]);
check('partition key as a column', (await rows(`SELECT r1c1, count(*) AS n FROM ${part} WHERE r1c1 = 1 GROUP BY r1c1`))[0].n, want.corner1);
if (failed) {
  console.log(`DuckDB check: ${failed} failed`);
  process.exit(1);
}
console.log('DuckDB check: ok');

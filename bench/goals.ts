/**
 * Issue 17's goals and their verdicts. Sections record their figures here as they run (PGlite
 * first, then PostgreSQL); `npm run bench` prints one table and one verdict line per goal at the end,
 * so every ratio and cross-database comparison is computed from figures of the same run.
 */

export type DbLabel = 'PGlite' | 'PostgreSQL';

export type FigureKey =
  | 'ping-ratio'
  | 'create-ratio'
  | 'create-rps'
  | 'list-p99'
  | 'list-deep-p99'
  | 'start-first-request'
  | 'idle-rss';

interface Recorded {
  value: number;
  /** min-max over the rounds, when the figure is a median of rounds */
  spread?: [number, number];
}

const figures = new Map<FigureKey, Partial<Record<DbLabel, Recorded>>>();

export function recordFigure(key: FigureKey, db: DbLabel, value: number, spread?: [number, number]): void {
  figures.set(key, { ...figures.get(key), [db]: { value, spread } });
}

interface Goal {
  key: FigureKey;
  measurement: string;
  unit: '%' | 'req/s' | 'ms' | 's' | 'MB';
  goal: string;
  /** null: no verdict can be given from the figures recorded (a database or a section not run) */
  verdict: (f: Partial<Record<DbLabel, Recorded>>) => boolean | null;
}

const atLeast = (db: DbLabel, min: number) => (f: Partial<Record<DbLabel, Recorded>>) =>
  f[db] ? f[db].value >= min : null;
const below = (db: DbLabel, max: number) => (f: Partial<Record<DbLabel, Recorded>>) =>
  f[db] ? f[db].value < max : null;
const both =
  (a: (f: Partial<Record<DbLabel, Recorded>>) => boolean | null, b: typeof a) =>
  (f: Partial<Record<DbLabel, Recorded>>) => {
    const x = a(f);
    const y = b(f);
    return x === null || y === null ? (x ?? y) : x && y;
  };

const GOALS: Goal[] = [
  {
    key: 'ping-ratio',
    measurement: '`GET /v1/ping` / bare Fastify route, same run (median of the process pairs)',
    unit: '%',
    goal: '>= 85%',
    verdict: both(atLeast('PGlite', 85), atLeast('PostgreSQL', 85)),
  },
  {
    key: 'create-ratio',
    measurement: 'create case / the same inserts through `pg`',
    unit: '%',
    goal: '>= 70%',
    verdict: atLeast('PostgreSQL', 70),
  },
  {
    key: 'create-rps',
    measurement: 'create case, req/s at 10 connections',
    unit: 'req/s',
    goal: 'PGlite >= 50% of PostgreSQL',
    verdict: (f) => (f.PGlite && f.PostgreSQL ? f.PGlite.value >= 0.5 * f.PostgreSQL.value : null),
  },
  {
    key: 'list-p99',
    measurement:
      'filtered, sorted list over 100k cases (`status=open&tags=vip&sort=name.desc`), p99 at 10 connections',
    unit: 'ms',
    goal: '< 25 ms on PostgreSQL',
    verdict: below('PostgreSQL', 25),
  },
  {
    key: 'list-deep-p99',
    measurement: 'list `status.in=open,draft&sort=last_activity_at.desc&page=50`, p99 at 10 connections',
    unit: 'ms',
    goal: '< 25 ms on PostgreSQL',
    verdict: below('PostgreSQL', 25),
  },
  {
    key: 'start-first-request',
    measurement: 'start → first answered request (`GET /v1/ping` with a key)',
    unit: 's',
    goal: '< 1.5 s',
    verdict: both(below('PGlite', 1.5), below('PostgreSQL', 1.5)),
  },
  {
    key: 'idle-rss',
    measurement: "resident memory, idle, after start (once V8's memory reducer has run)",
    unit: 'MB',
    goal: '< 350 MB PGlite, < 150 MB PostgreSQL',
    verdict: both(below('PGlite', 350), below('PostgreSQL', 150)),
  },
];

function show(r: Recorded | undefined, unit: Goal['unit']): string {
  if (!r) return '';
  const fmt = (v: number) =>
    unit === 's' ? v.toFixed(2) : unit === 'ms' ? v.toFixed(1) : Math.round(v).toLocaleString('en-US');
  const suffix = unit === 'req/s' ? '' : unit === '%' ? '%' : ` ${unit}`;
  const range = r.spread ? ` (${fmt(r.spread[0])}-${fmt(r.spread[1])})` : '';
  return `${fmt(r.value)}${suffix}${range}`;
}

/** The goals table with this run's figures, then a verdict line per goal; nothing when none recorded. */
export function printVerdicts(): void {
  if (!figures.size) return;
  console.log(
    '\n# Issue 17 goals (medians of the rounds, of the process pairs for ping; min-max in brackets)\n',
  );
  console.log('| measurement | PGlite | PostgreSQL | goal |');
  console.log('|---|---:|---:|---:|');
  for (const g of GOALS) {
    const f = figures.get(g.key);
    if (!f) continue;
    console.log(
      `| ${g.measurement} | ${show(f.PGlite, g.unit)} | ${show(f.PostgreSQL, g.unit)} | ${g.goal} |`,
    );
  }
  console.log('');
  for (const g of GOALS) {
    const f = figures.get(g.key);
    if (!f) continue;
    const v = g.verdict(f);
    const word = v === null ? 'NOT MEASURED' : v ? 'MET' : 'NOT MET';
    console.log(`verdict: ${g.key}: ${word} (goal ${g.goal})`);
  }
}

/** Runs one SQL text and answers its rows (either engine, any driver). */
export type RunSql = (text: string) => Promise<Record<string, unknown>[]>;

/** Per table of the public and drizzle schemas: its columns, row count and a hash of every row's values. */
export type TableSnapshot = Record<string, { columns: string[]; rows: number; hash: string }>;

/** The base tables of the public and drizzle schemas, each with its columns in order; a partitioned table's rows are read through it, not its partitions. */
export async function tableColumns(run: RunSql): Promise<{ name: string; columns: string[] }[]> {
  const listed = await run(
    `select c.table_schema || '.' || c.table_name as name, array_agg(c.column_name::text order by c.ordinal_position) as columns
       from information_schema.columns c
       join information_schema.tables t using (table_schema, table_name)
      where c.table_schema in ('public', 'drizzle') and t.table_type = 'BASE TABLE'
        and (quote_ident(c.table_schema) || '.' || quote_ident(c.table_name))::regclass
            not in (select inhrelid from pg_inherits)
      group by 1 order by 1`,
  );
  return listed.map((r) => ({ name: String(r.name), columns: r.columns as string[] }));
}

/**
 * What a backup, restore or upgrade must keep: every table's rows, value for value. With `of` (an earlier
 * snapshot, or a list of tables and columns), only those tables and columns are read, so a migrated database is
 * compared with what it was before the migrations added tables and columns.
 */
export async function tableSnapshot(
  run: RunSql,
  of?: TableSnapshot | { name: string; columns: string[] }[],
): Promise<TableSnapshot> {
  const tables = Array.isArray(of)
    ? of
    : of
      ? Object.entries(of).map(([name, { columns }]) => ({ name, columns }))
      : await tableColumns(run);
  if (tables.length === 0) return {};
  // One statement for every table: on PGlite a statement's own cost is most of a small table's (idempotency's
  // cases take two snapshots of some sixty tables each).
  const counted = await run(
    tables
      .map(({ name, columns }, i) => {
        const list = columns.map((c) => `"${c}"`).join(', ');
        return `select ${i} as i, count(*)::int as rows, md5(coalesce(string_agg(r::text, E'\\n' order by r::text), '')) as hash
         from (select ${list} from ${name}) r`;
      })
      .join('\n union all\n'),
  );
  const byIndex = new Map(counted.map((r) => [Number(r.i), r]));
  return Object.fromEntries(
    tables.map(({ name, columns }, i) => {
      const r = byIndex.get(i)!;
      return [name, { columns, rows: Number(r.rows), hash: String(r.hash) }];
    }),
  );
}

/** Every row of every table (as its text form), for a database small enough to hold in memory (a fixture). */
export async function tableRows(
  run: RunSql,
  of?: TableSnapshot,
): Promise<Record<string, { columns: string[]; rows: string[] }>> {
  const tables = of ?? (await tableSnapshot(run));
  const contents: Record<string, { columns: string[]; rows: string[] }> = {};
  for (const [name, { columns }] of Object.entries(tables)) {
    const list = columns.map((c) => `"${c}"`).join(', ');
    const rows = await run(`select r::text as row from (select ${list} from ${name}) r order by 1`);
    contents[name] = { columns, rows: rows.map((r) => String(r.row)) };
  }
  return contents;
}

/** The rows of `before` that `after` no longer holds, per table (tables that lost none are left out). */
export function missingRows(
  before: Record<string, { rows: string[] }>,
  after: Record<string, { rows: string[] }>,
): Record<string, string[]> {
  const missing: Record<string, string[]> = {};
  for (const [name, { rows }] of Object.entries(before)) {
    const left = new Map<string, number>();
    for (const row of after[name]?.rows ?? []) left.set(row, (left.get(row) ?? 0) + 1);
    const lost = rows.filter((row) => {
      const n = left.get(row) ?? 0;
      left.set(row, n - 1);
      return n <= 0;
    });
    if (lost.length) missing[name] = lost;
  }
  return missing;
}

import { webTransactionColumnKinds } from '@lp/contract/web-sessions/schemas';
import { denialReasonLabels, leaseOutcomeLabels } from '@lp/domain/web-reporting';
import { type SQL, sql } from 'drizzle-orm';
import { type Resource, typedColumns } from '../../platform/query/resource.ts';

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** A code column shown as its words: a CASE over the domain's labels (developer constants, never client text). */
const labelled = (column: string, labels: Record<string, string>, otherwise: string): SQL =>
  sql.raw(
    `(case ${column} ${Object.entries(labels)
      .map(([code, label]) => `when ${literal(code)} then ${literal(label)}`)
      .join(' ')} else ${otherwise} end)`,
  );

/**
 * web_leases (leases and denials, decision 071) for the generic query engine, with the person, the group and the
 * pool's product joined. The service adds the account as scope; with the default sort (Start descending) a page
 * reads the index web_leases_account_started_idx (customer_number, started_at) backwards.
 */
export const webTransactionsResource: Resource = {
  name: 'web-transactions',
  from: sql`web_leases l
    left join web_users u on u.id = l.user_id
    left join web_groups g on g.id = l.group_id
    left join products p on p.part_number = l.part_number`,
  columns: typedColumns(webTransactionColumnKinds, {
    Start: { expr: sql`l.started_at` },
    // A denial ends as it starts: it has no end or duration of its own.
    End: { expr: sql`(case when l.outcome = 'denied' then null else l.ended_at end)`, nullable: true },
    Duration: {
      expr: sql`(case when l.outcome = 'denied' then null
        else round((extract(epoch from coalesce(l.ended_at, now()) - l.started_at) / 60)::numeric, 1)::float8 end)`,
      nullable: true,
    },
    Email: { expr: sql`l.email` },
    UserName: { expr: sql`coalesce(u.name, '')` },
    Group: { expr: sql`coalesce(g.name, '')` },
    PartNumber: { expr: sql`l.part_number` },
    Product: { expr: sql`coalesce(p.name, l.part_number)` },
    Application: { expr: sql`l.product` },
    Client: { expr: sql`l.client` },
    Outcome: { expr: labelled('l.outcome', leaseOutcomeLabels, 'l.outcome') },
    DenialReason: { expr: labelled('l.denial_reason', denialReasonLabels, "''") },
  }),
  id: { expr: sql`l.id`, type: 'number' },
  defaultSort: [{ name: 'Start', direction: 'desc' }],
  maxLimit: 10_000,
  maxDistinct: 500,
};

export const transactionsScope = (customerNumber: string) => sql`l.customer_number = ${customerNumber}`;

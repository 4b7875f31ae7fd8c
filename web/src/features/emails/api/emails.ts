import { emailsApi } from '@lp/contract/emails/api';
import { type EmailDetail, type EmailRow, emailColumnKinds } from '@lp/contract/emails/schemas';
import type { Criterion } from '@lp/contract/query/schemas';
import { type ApiClient, api, type RequestOptions } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';
import { createDataService, type DataService } from '../../../lib/data-service.ts';

export const EMAILS_BASE = emailsApi.page.path;

/** Text-filter methods whose Date criteria compare the displayed 'YYYY-MM-DD HH:mm:ss' text, not the instant. */
const textMethods = new Set(['CONTAINS', 'STARTSWITH', 'ENDSWITH', 'EQUALS']);

function withDateText(criterion: Criterion): Criterion {
  return criterion.name === 'date' && textMethods.has(criterion.method)
    ? { ...criterion, tostring: true }
    : criterion;
}

/**
 * The data service's calls carry only filter/sort/paging; the e-mail endpoints also need the customer.
 * This client adds it to every call and turns the Date column's text filters into text comparisons.
 */
export function emailsClient(customerNumber: string, base: ApiClient = api): ApiClient {
  return <T>(path: string, options: RequestOptions = {}) => {
    const body = (options.body ?? {}) as {
      filter?: { condition: string; criteria: Criterion[] };
    };
    const filter = body.filter
      ? { ...body.filter, criteria: body.filter.criteria.map(withDateText) }
      : undefined;
    return base<T>(path, { ...options, body: { ...body, filter, customerNumber } });
  };
}

/** The Date column's text filters become text comparisons in emailsClient, after the data service: the server decides them. */
const { date: _rewritten, ...narrowableEmailColumns } = emailColumnKinds;

/** The e-mails query (page, count, distinct) for one customer, as a grid data source. */
export function createEmailsDataService(customerNumber: string, client?: ApiClient): DataService<EmailRow> {
  return createDataService<EmailRow>({
    base: EMAILS_BASE,
    client: emailsClient(customerNumber, client),
    columns: narrowableEmailColumns,
  });
}

/** One e-mail of the customer (body already sanitised by the server). */
export async function getEmail(customerNumber: string, id: string): Promise<EmailDetail> {
  return (await call(emailsApi.get, { customerNumber, id })).data;
}

import { csrfHeader } from '@lp/contract/auth/schemas';
import { messages } from '@lp/contract/common/errors';
import { statementsApi } from '@lp/contract/statements/api';
import type { StatementRequest } from '@lp/contract/statements/schemas';
import { queryOptions } from '@tanstack/react-query';
import { redirectToSignIn } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';

/** The statement (spec 001 §7). A FAILURE is final: the answer depends only on the data, so no retry. */
export const statementQuery = (request: StatementRequest) =>
  queryOptions({
    queryKey: ['statement', request] as const,
    queryFn: async ({ signal }) => (await call(statementsApi.statement, request, { signal })).data,
    retry: false,
  });

/**
 * The statement PDF. The shared client reads JSON; a file answer is read here as a blob with the same headers and
 * 401 rule. Spec 001 §8: an HTTP failure reads "An error occurred when exporting the PDF.", an answer that is not
 * a PDF "An error occurred when loading the PDF.".
 */
export async function fetchStatementPdf(request: StatementRequest): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch(statementsApi.pdf.path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { [csrfHeader]: '1', 'content-type': 'application/json', accept: 'application/pdf' },
      body: JSON.stringify(request),
    });
  } catch {
    throw new Error(messages.pdfExportFailed);
  }
  if (res.status === 401) {
    redirectToSignIn();
    throw new Error(messages.notSignedIn);
  }
  if (!res.ok) throw new Error(messages.pdfExportFailed);
  if (!(res.headers.get('content-type') ?? '').startsWith('application/pdf'))
    throw new Error(messages.pdfNotPdf);
  return res.blob();
}

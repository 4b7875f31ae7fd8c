import type { QueryClient } from '@tanstack/react-query';

/*
 * The query clients of a test's renders. The files of a worker share one document and one `fetch` slot
 * (isolate: false): a read still retrying after its test ended (api-client waits between attempts) would call
 * the next test's stubbed API and count as one of its calls. After each test its reads are cancelled (the
 * client's signal stops the retries) and its cache is dropped.
 */
const clients = new Set<QueryClient>();

export function trackQueryClient(client: QueryClient): QueryClient {
  clients.add(client);
  return client;
}

export async function releaseQueryClients() {
  for (const client of clients) {
    await client.cancelQueries();
    client.clear();
  }
  clients.clear();
}

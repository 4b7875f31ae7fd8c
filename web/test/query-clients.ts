import type { QueryClient } from '@tanstack/react-query';

/*
 * The query clients of a test's renders. The files of a worker share one document and one `fetch` slot
 * (isolate: false): a read still retrying after its test ended (api-client waits between attempts) would call
 * the next test's stubbed API and count as one of its calls. After each test its writes still running are let
 * finish against the test's own stub (a mutation takes no signal: its retries end within about a second), its
 * reads are cancelled (the client's signal stops the retries) and its cache is dropped.
 */
const clients = new Set<QueryClient>();

export function trackQueryClient(client: QueryClient): QueryClient {
  clients.add(client);
  return client;
}

/** A write left waiting on a gate its test never opened is given up on after this long. */
const MUTATIONS_SETTLE_MS = 5_000;

/** Resolves once the client has no mutation running (or after MUTATIONS_SETTLE_MS). */
function mutationsSettled(client: QueryClient): Promise<void> {
  if (client.isMutating() === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, MUTATIONS_SETTLE_MS);
    const unsubscribe = client.getMutationCache().subscribe(() => {
      if (client.isMutating() === 0) done();
    });
  });
}

export async function releaseQueryClients() {
  await Promise.all([...clients].map(mutationsSettled));
  for (const client of clients) {
    await client.cancelQueries();
    client.clear();
  }
  clients.clear();
}

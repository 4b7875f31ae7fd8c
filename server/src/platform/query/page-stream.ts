import { Readable } from 'node:stream';

/**
 * The page envelope `{"status":"SUCCESS","data":[rows],"token":…}` as a stream written chunk by chunk as
 * the rows arrive (decision 021). The reply pipes it with backpressure: the next chunk is read from the
 * database only once the socket has taken the previous one. The first chunk is read before answering, so a
 * failure before any row (bad token, denied, database error) is an ordinary error reply. A failure after
 * that is logged by Fastify and ends the response unfinished: the client sees a broken transfer, never a
 * success, and retries. `onClose` runs once: when the stream ends or fails, or the client goes away.
 */
export async function pageEnvelopeStream(
  chunks: AsyncGenerator<unknown[], string | null>,
  onClose: () => void,
): Promise<Readable> {
  let step: IteratorResult<unknown[], string | null>;
  try {
    step = await chunks.next();
  } catch (e) {
    onClose();
    throw e;
  }
  async function* body() {
    yield '{"status":"SUCCESS","data":[';
    let separator = '';
    while (!step.done) {
      let text = '';
      for (const row of step.value) {
        text += separator + JSON.stringify(row);
        separator = ',';
      }
      yield text;
      step = await chunks.next();
    }
    yield `],"token":${JSON.stringify(step.value)}}`;
  }
  // One chunk buffered at most: memory per request stays at a chunk or two whatever the page size.
  const stream = Readable.from(body(), { highWaterMark: 1 });
  stream.once('close', () => {
    // Closes the database cursor when the client left or the stream failed before the end.
    chunks.return(null).catch(() => {});
    onClose();
  });
  return stream;
}

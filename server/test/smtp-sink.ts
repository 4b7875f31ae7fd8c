import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server in this process on a free port; `state.mode` decides whether it accepts the next messages,
 * `state.delayMs` how long it takes to answer. `next(match)` resolves with the first message received that
 * matches, already or when it arrives: the signal a test waits on.
 */
export async function startSmtpSink() {
  const state = { mode: 'accept' as 'accept' | 'reject', delayMs: 0, received: [] as Received[] };
  const waiting: { match: (m: Received) => boolean; resolve: (m: Received) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        setTimeout(() => {
          if (state.mode === 'reject') {
            const error = Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 });
            callback(error);
            return;
          }
          const message = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          };
          state.received.push(message);
          callback();
          for (const w of waiting.filter((w) => w.match(message))) {
            waiting.splice(waiting.indexOf(w), 1);
            w.resolve(message);
          }
        }, state.delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    state,
    url: `smtp://127.0.0.1:${port}`,
    next: (match: (m: Received) => boolean) =>
      new Promise<Received>((resolve) => {
        const already = state.received.find(match);
        if (already) resolve(already);
        else waiting.push({ match, resolve });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface DeliveredMail {
  /** The envelope sender (in the scale-out test each node has its own MAIL_FROM, so it names the node). */
  from: string;
  to: string[];
  subject: string;
  /** The whole message as received (headers and MIME body, attachments base64-encoded) */
  raw: string;
}

export interface Mailbox {
  mail: DeliveredMail[];
  url: string;
  close: () => Promise<void>;
}

/** A real SMTP server in the Playwright worker; each message is answered after `delayMs`, so deliveries may overlap. */
export async function startSmtp(delayMs = 0): Promise<Mailbox> {
  const mail: DeliveredMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        // Header lines may be folded (CRLF + white space); unfold before reading the subject.
        const head = raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, ' ');
        setTimeout(() => {
          mail.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: /^Subject: (.*)$/im.exec(head)?.[1]?.trim() ?? '',
            raw,
          });
          callback();
        }, delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    mail,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

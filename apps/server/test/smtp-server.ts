import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

/** One message as the SMTP server received it. */
export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
  /** A header's value (unfolded), by case-insensitive name. */
  header(name: string): string | undefined;
  body: string;
}

export interface FakeSmtp {
  /** smtp://user:password@127.0.0.1:port */
  url: string;
  received: ReceivedMail[];
  /** Refuse the next n messages at DATA with this reply (451: try again later; 554: never). */
  refuseNext(count: number, code?: number): void;
  /** Milliseconds to take over each message before answering. */
  delayMs: number;
  /** Answer no message until the returned function is called (a delivery that takes as long as a test needs). */
  holdReplies(): () => void;
  /** Messages received whose reply is being held. */
  inHand: number;
  close(): Promise<void>;
}

export const SMTP_USER = "voltio";
export const SMTP_PASSWORD = "smtp-pass:word";

/**
 * A real SMTP server on 127.0.0.1, the one fake of the mail tests: it stands for the mail provider outside
 * the machine. It requires AUTH with SMTP_USER / SMTP_PASSWORD (over plain text, as a local relay may) and
 * records what it accepts.
 */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  let refusalCode = 451;
  let held = Promise.resolve();
  const fake: FakeSmtp = {
    url: "",
    received,
    refuseNext(count, code = 451) {
      refusals = count;
      refusalCode = code;
    },
    delayMs: 0,
    holdReplies() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = Promise.resolve();
        release();
      };
    },
    inHand: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD)
        callback(null, { user: auth.username });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        fake.inHand++;
        await held;
        fake.inHand--;
        setTimeout(() => {
          if (refusals > 0) {
            refusals--;
            const message = refusalCode < 500 ? "Try again later" : "Message refused";
            callback(Object.assign(new Error(message), { responseCode: refusalCode }));
            return;
          }
          received.push(parse(Buffer.concat(chunks).toString("utf8"), session));
          callback(null);
        }, fake.delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  fake.url = `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`;
  return fake;
}

function parse(raw: string, session: SMTPServerSession): ReceivedMail {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, end).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  const { mailFrom, rcptTo } = session.envelope;
  return {
    mailFrom: mailFrom ? mailFrom.address : "",
    rcptTo: rcptTo.map((recipient) => recipient.address),
    raw,
    header: (name) => headers.get(name.toLowerCase()),
    body: raw.slice(end + 4),
  };
}

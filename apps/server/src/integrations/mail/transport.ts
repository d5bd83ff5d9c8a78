import { mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import type Mail from "nodemailer/lib/mailer";
import type { MailConfig } from "../../config";

/** One message as it leaves the store: the same Message-ID and Date on every attempt. */
export interface OutgoingMail {
  /** A UUID: the Message-ID's left part and the .eml file's name. */
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  headers: Record<string, string>;
  date: Date;
}

/** Where mail goes: an SMTP server (SMTP_URL), or .eml files in DATA_DIR/mail. */
export interface MailTransport {
  /** What an operator reads in the log: `SMTP at host:port` or the directory (never a password). */
  readonly description: string;
  /** Resolves once the message is handed over; rejects with a {@link DeliveryError} or another error. */
  deliver(message: OutgoingMail): Promise<{ location?: string }>;
  close(): void;
}

/**
 * A refusal worth no retry, about the message itself: its recipient or its content refused for good (SMTP
 * 5xx at RCPT TO or DATA) or not sendable at all. A refused login, an unreachable server or our own sender
 * refused are settings or outages to fix: those are retried.
 */
export function isPermanentFailure(error: unknown): boolean {
  const { code, command, responseCode } = error as {
    code?: unknown;
    command?: unknown;
    responseCode?: unknown;
  };
  if (code !== "EENVELOPE" && code !== "EMESSAGE") return false;
  if (command === "MAIL FROM") return false;
  if (command === "API") return true;
  return typeof responseCode === "number" && responseCode >= 500 && responseCode < 600;
}

/** Short and single-line, for last_error and the log. */
export function describeFailure(error: unknown): string {
  const { message, code, responseCode } = error as { message?: string; code?: string; responseCode?: number };
  const text = (message || String(error)).replace(/\s+/g, " ").trim();
  const tag = responseCode ? `SMTP ${responseCode}` : code;
  return (tag && !text.includes(String(tag)) ? `${tag}: ${text}` : text).slice(0, 1000);
}

export function createMailTransport(config: MailConfig): MailTransport {
  const [sender] = addressparser(config.from, { flatten: true });
  const domain = sender!.address.split("@").pop()!;
  const compose = (message: OutgoingMail): Mail.Options => ({
    from: config.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html ?? undefined,
    headers: message.headers,
    messageId: `<${message.messageId}@${domain}>`,
    date: message.date,
  });
  return config.smtpUrl ? smtpTransport(config.smtpUrl, compose) : fileTransport(config.dir, compose);
}

function smtpTransport(url: string, compose: (message: OutgoingMail) => Mail.Options): MailTransport {
  // One pooled connection, reused from message to message. Timeouts well inside MAIL_LEASE_SECONDS, so a
  // send that hangs fails (and is retried) before another worker may take the message. Options in the URL's
  // query (?tls.rejectUnauthorized=false…) override these.
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 1,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  const { hostname, port, protocol } = new URL(url);
  return {
    description: `SMTP at ${hostname}:${port || (protocol === "smtps:" ? 465 : 587)}`,
    async deliver(message) {
      await transporter.sendMail(compose(message));
      return {};
    },
    close: () => transporter.close(),
  };
}

function fileTransport(dir: string, compose: (message: OutgoingMail) => Mail.Options): MailTransport {
  // nodemailer builds the RFC 5322 message and hands it back as a buffer. Its headers end in CRLF, but
  // line breaks inside a 7-bit body stay as given (SMTP converts them on the wire): the file gets CRLF
  // throughout, byte for byte what an SMTP server would have stored.
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    description: `.eml files in ${dir}`,
    async deliver(message) {
      const { message: built } = (await builder.sendMail(compose(message))) as { message: Buffer };
      const raw = Buffer.from(built.toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1");
      await mkdir(dir, { recursive: true });
      // Named by the Message-ID: a message written again (a retry after a crash) replaces itself. Written
      // aside, flushed, then renamed into place: a reader never sees half a message.
      const file = join(dir, `${message.messageId}.eml`);
      const draft = join(dir, `.${message.messageId}.${process.pid}.tmp`);
      try {
        const handle = await open(draft, "w", 0o640);
        try {
          await handle.writeFile(raw);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(draft, file);
      } catch (error) {
        await rm(draft, { force: true });
        throw error;
      }
      return { location: file };
    },
    close: () => builder.close(),
  };
}

import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/** What the oracle needs of a reply: light-my-request's response has all of it. */
export interface FuzzReply {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
}

export interface Verdict {
  /** Short and stable, so failures can be grouped: "status 500", "leak: SQL text", ... */
  kind: string;
  /** The offending excerpt of the reply. */
  evidence: string;
}

const STACK_TRACE: RegExp[] = [
  /^\s{2,}at \S.*$/m,
  /\bat (?:async )?[\w$.<>]+ \((?:file:\/\/)?\/[^)]*:\d+:\d+\)/,
  /\b\w*Error: [^\n]*?(?:\/[\w.@-]+)+\.(?:[cm]?[jt]s|tsx)\b/,
];

// Server error texts of PostgreSQL and drizzle, and SQL itself. Quoted identifiers keep product prose out.
const SQL_TEXT: RegExp[] = [
  /Failed query/i,
  /syntax error at or near/i,
  /\bviolates (?:not-null |foreign key |unique |check )?constraint/i,
  /\bselect\b[^<>\n]{0,300}?\bfrom\s+"\w+"/i,
  /\binsert into\s+"\w+"/i,
  /\bupdate\s+"\w+"\s+set\b/i,
  /\bdelete from\s+"\w+"/i,
  /\brelation "\w+" does not exist/i,
  /\binvalid input (?:syntax|value) for (?:type|enum)\b/i,
  /\bout of range for type (?:integer|bigint|smallint|numeric)\b/i,
  /\binvalid byte sequence for encoding\b/i,
  /\bunterminated quoted (?:string|identifier)\b/i,
  /\bcolumn "\w+" (?:does not exist|of relation)/i,
];

const INTERNAL_PATH: RegExp[] = [/\/work\//, /apps\/server/, /node_modules/, /file:\/\//];

/** Static files are bytes we ship, not error output: only their status is judged. */
const ASSET_TYPE =
  /^(?:image\/|font\/|audio\/|video\/|text\/css|(?:application|text)\/javascript|application\/octet-stream)/;

/** The reply's text as a client reads it: content-encoding undone. */
export function replyText(reply: FuzzReply): string {
  const encoding = String(reply.headers["content-encoding"] ?? "").trim();
  let bytes = reply.rawPayload;
  try {
    if (encoding === "br") bytes = brotliDecompressSync(bytes);
    else if (encoding === "gzip") bytes = gunzipSync(bytes);
    else if (encoding === "deflate") bytes = inflateSync(bytes);
  } catch {
    // A body that doesn't decode is judged as sent.
  }
  return bytes.toString("utf8");
}

const excerpt = (text: string, index: number) =>
  JSON.stringify(text.slice(Math.max(0, index - 60), index + 140));

function firstMatch(text: string, patterns: RegExp[]): string | null {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return excerpt(text, match.index);
  }
  return null;
}

/**
 * null when the reply is acceptable; otherwise why not. The rules of the fuzz suite: no 5xx, and no stack
 * trace, SQL text or internal path in any reply body or header.
 */
export function judge(reply: FuzzReply): Verdict | null {
  if (reply.statusCode >= 500) {
    return { kind: `status ${reply.statusCode}`, evidence: JSON.stringify(replyText(reply).slice(0, 200)) };
  }
  const headers = Object.entries(reply.headers)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : String(value)}`)
    .join("\n");
  const type = String(reply.headers["content-type"] ?? "");
  const isAsset = reply.statusCode < 300 && ASSET_TYPE.test(type);
  const texts = isAsset ? [headers] : [headers, replyText(reply)];
  for (const text of texts) {
    const stack = firstMatch(text, STACK_TRACE);
    if (stack) return { kind: "leak: stack trace", evidence: stack };
    const sql = firstMatch(text, SQL_TEXT);
    if (sql) return { kind: "leak: SQL text", evidence: sql };
    const path = firstMatch(text, INTERNAL_PATH);
    if (path) return { kind: "leak: internal path", evidence: path };
  }
  return null;
}

import fc from "fast-check";
import { knownQueryNames, type JsonSchema, type Parameter, type Target } from "./routes";

/** One generated request, before it is sent under each identity. */
export interface FuzzRequest {
  /** "GET /api/products/:id": the route aimed at, for grouping failures. */
  target: string;
  /** What was broken, by class ("query:categoryId=int4-overflow"): failures are grouped by these. */
  labels: string[];
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** A way to present oneself: a valid token of a demo user, or a hostile Authorization header. */
export interface Identity {
  name: string;
  authorization?: string;
}

/** The request as it is built up; mutations edit it. */
interface Draft {
  method: string;
  path: string;
  pathValues: Record<string, string>;
  pathSuffix: string;
  /** Already percent-encoded key and value; null value: the key alone, without "=". */
  query: [string, string | null][];
  rawQuery?: string;
  headers: Record<string, string | null>;
  json?: { value: unknown };
  raw?: string | Buffer;
  /** Literal JSON text spliced in for a marker string: numbers JSON.stringify can't write. */
  splices: Record<string, string>;
}

interface Mutation {
  label: string;
  apply(draft: Draft): void;
}

// ---------------------------------------------------------------------------------------------------------
// Hostile values

/** Raw (already percent-encoded) values for query strings and path segments. */
const RAW_HOSTILE: string[] = [
  "2147483647",
  "2147483648",
  "-2147483649",
  "4294967296",
  "9223372036854775807",
  "9223372036854775808",
  "99999999999",
  "99999999999999999999999999",
  "-1",
  "0",
  "-0",
  "1.5",
  "0.000001",
  "1e3",
  "1E3",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "007",
  "0x1F",
  "0b11",
  "0o7",
  "1_000",
  "+1",
  "%201",
  "1%20",
  "",
  "%20",
  "%00",
  "a%00b",
  "%01",
  "%0a",
  "%0d%0a",
  "%09",
  "%7f",
  "%ff",
  "%c0%80",
  "%ed%a0%80",
  "%f4%90%80%80",
  "%fe%ff",
  "%",
  "%zz",
  "%2",
  "%25",
  "%2525",
  "..%2f..%2fetc%2fpasswd",
  "%2e%2e%2f%2e%2e%2f",
  "..",
  ".",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "[object%20Object]",
  "__proto__",
  "constructor",
  "%27%20OR%201%3D1--",
  "%27%3B%20drop%20table%20users%3B--",
  "%5C",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "%F0%9F%98%80",
  "%E2%80%AE",
  "%EF%BB%BF",
  "%C3%BC%C3%B1%C3%AF",
  "a".repeat(5000),
  "9".repeat(400),
  "%ff".repeat(1000),
  "%00".repeat(200),
  "%F0%9F%98%80".repeat(300),
];

/** JSON values of every type, at the edges. */
const JSON_HOSTILE: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0.5,
  1.5,
  2147483647,
  2147483648,
  -2147483649,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  "",
  " ",
  "1",
  "2147483648",
  "NaN",
  "Infinity",
  "1e3",
  "\u0000",
  "a\u0000b",
  "\u0001\u001f\u007f\u0085",
  "\r\n",
  "\ud800",
  "\udfff",
  "\u202e\ufeff",
  "🙂".repeat(100),
  "x".repeat(100_000),
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "javascript:alert(1)",
  [],
  [1],
  ["a", "b"],
  {},
  { a: 1 },
  { __proto__: null, polluted: true },
  [[[[[]]]]],
];

/** JSON number texts JSON.stringify can't produce, spliced into the body text. */
const RAW_JSON_NUMBERS = ["1e400", "-1e400", "123456789012345678901234567890", "-0", "1.0", "0.1e1", "1E+2"];

/** Whole bodies that aren't what a JSON route expects. */
const MALFORMED_JSON = [
  "",
  " ",
  "{",
  "}",
  '{"a":',
  "{a:1}",
  "{'a':1}",
  '{"a":1,}',
  "[1,2",
  "nul",
  "NaN",
  '"unterminated',
  "\u0000",
  '{"a":"\\u00"}',
  '{"a":"\\x41"}',
  '{"a":1}{"b":2}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":0x10}',
  '{"a":Infinity}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":"duplicate"}',
  "true",
  "1",
  '"just a string"',
  "null",
  "[]",
];

const DEEP = (depth: number, withProto: boolean) =>
  (withProto ? '{"__proto__":' : "") + "[".repeat(depth) + "]".repeat(depth) + (withProto ? "}" : "");
const DEEP_BODIES: [string, string][] = [
  ["deep-array-1k", DEEP(1000, false)],
  ["deep-array-100k", DEEP(100_000, false)],
  ["deep-proto-100k", DEEP(100_000, true)],
  ["deep-object-20k", '{"a":'.repeat(20_000) + "1" + "}".repeat(20_000)],
];
// Past the app's 1 MiB bodyLimit.
const OVERSIZED_JSON = JSON.stringify({ filler: "x".repeat(1024 * 1024 + 10) });

const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/json;;",
  "application/jsonx",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json, text/plain",
  "*/*",
  "",
  "multipart/form-data",
  "text/html; charset=%ff",
];

/** The values of well-known headers a hostile client may send. */
const HEADER_VALUES: Record<string, string[]> = {
  "accept-encoding": [
    "br;q=NaN",
    "gzip;q=2",
    "*;q=0",
    "identity;q=0",
    "gzip, deflate, br, zstd",
    "x".repeat(4000),
    ",,,",
    "br;q=-1",
  ],
  "accept-language": [
    "*;q=abc",
    "zz-ZZ",
    "en-US;q=1, es;q=0.5",
    "é",
    "-",
    "a".repeat(4000),
    "es-ES;q=0.9,*;q=NaN",
    ";;;",
  ],
  cookie: [
    "lang=%ff",
    "lang=xx",
    "lang=",
    "=;=;=",
    "refresh=garbage",
    "a".repeat(8000),
    "lang=es; lang=en",
    "lang=%00",
  ],
  "x-forwarded-for": ["garbage", "1.2.3.4, ::1", "999.999.999.999", "", "::ffff:127.0.0.1".repeat(50)],
  host: ["", "evil.example", "a".repeat(300), "[::1]:99999", "localhost:0"],
  origin: ["null", "https://evil.example", "%ff"],
  referer: ["javascript:alert(1)", "http://[::1", "x".repeat(3000)],
  "if-none-match": ['"x"', "*", "W/", ""],
  "if-modified-since": ["garbage", "Thu, 01 Jan 1970 00:00:00 GMT", "Sat, 31 Dec 275759 00:00:00 GMT"],
  range: ["bytes=abc", "bytes=999999999-", "bytes=5-1", "bytes=0-0,0-0,0-0", "items=0-1"],
  accept: ["application/xml", "text/html;q=abc", "*/*;q=0", ""],
  "x-http-method-override": ["DELETE", "PUT"],
  "content-encoding": ["gzip", "br", "identity, gzip"],
};

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The class of a raw value, for grouping ("2147483648" → int4-overflow). */
export function classify(raw: string): string {
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return "bad-percent-encoding";
  }
  if (text.length > 1000) return "huge";
  if (text === "") return "empty";
  if (text.includes("\u0000")) return "nul";
  // eslint-disable-next-line no-control-regex -- control characters are the class
  if (/[\u0001-\u001f\u007f]/.test(text)) return "control-char";
  if (/\ufffd|[\ud800-\udfff]/.test(text)) return "bad-utf8";
  if (/^-?\d+$/.test(text)) {
    const n = BigInt(text);
    if (n > 9223372036854775807n || n < -9223372036854775808n) return "int8-overflow";
    if (n > 2147483647n || n < -2147483648n) return "int4-overflow";
    if (/^-?0\d/.test(text)) return "leading-zero";
    if (n < 0n) return "negative";
    if (n === 0n) return "zero";
    return "integer";
  }
  if (/^[+-]?(NaN|Infinity)$/.test(text)) return "nan-infinity";
  if (/^[+-]?\d*\.?\d+e[+-]?\d+$/i.test(text)) return "exponent";
  if (/^[+-]?\d*\.\d+$/.test(text)) return "float";
  if (/^\s*[+-]?\d+\s*$|^0[xbo]|^\d+_/.test(text)) return "numeric-form";
  if (/\.\.|\//.test(text)) return "path-traversal";
  if (/[^\x20-\x7e]/.test(text)) return "unicode";
  return "text";
}

/** The class of a JSON value. */
function classifyJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "object";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return `number:${classify(String(value))}`;
  if (typeof value === "string")
    return `string:${classify(encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "\ufffd")))}`;
  return typeof value;
}

const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, "\ufffd"));
  }
};

const rawHostile: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...RAW_HOSTILE), weight: 6 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }).map(encode), weight: 1 },
  { arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String), weight: 1 },
  { arbitrary: fc.double().map(String), weight: 1 },
);

const jsonHostile: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...JSON_HOSTILE), weight: 6 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 1 },
  { arbitrary: fc.integer({ min: -(2 ** 53), max: 2 ** 53 }), weight: 1 },
);

// ---------------------------------------------------------------------------------------------------------
// Valid-looking values, from the schema

const types = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];

function integerRange(schema: JsonSchema, context: "json" | "text"): [number, number] {
  let min = schema.minimum ?? -1000;
  let max = schema.maximum ?? 1000;
  if (schema.exclusiveMinimum === true || typeof schema.exclusiveMinimum === "number") min += 1;
  if (typeof schema.exclusiveMinimum === "number") min = Math.max(min, schema.exclusiveMinimum + 1);
  if (schema.exclusiveMaximum === true) max -= 1;
  // Bodies name accounts (role changes, deletions): keep the demo admin (1) and shopper (2) the fuzzer signs
  // in as, so every identity stays valid for the whole run.
  if (context === "json") min = Math.max(min, 3);
  return [min, Math.max(min, Math.min(max, min + 60))];
}

function validString(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 30, Math.max(min, 30));
  const lower = name.toLowerCase();
  if (schema.format === "email" || lower.includes("email"))
    return fc.nat(1_000_000).map((n) => `fuzz-${n}@example.com`);
  // Strong enough for registration's strength rule, so a valid body is accepted.
  if (lower.includes("password")) return fc.constant("Fuzz-quartz-lantern-7");
  if (lower.includes("picture") || lower.includes("url")) return fc.constant("https://example.com/a.png");
  if (schema.pattern === "^[a-zA-Z]+$")
    return fc.string({
      unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
      minLength: Math.max(min, 1),
      maxLength: Math.max(max, 1),
    });
  return fc.string({
    unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789 -"),
    minLength: min,
    maxLength: max,
  });
}

/** A value the schema accepts, as far as the generator can tell (refinements are the server's). */
export function validValue(
  schema: JsonSchema,
  name: string,
  context: "json" | "text",
): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0) return fc.oneof(...variants.map((v) => validValue(v, name, context)));
  if (schema.allOf?.[0]) return validValue(schema.allOf[0], name, context);
  const type = types(schema).find((t) => t !== "null") ?? (schema.properties ? "object" : "string");
  let value: fc.Arbitrary<unknown>;
  switch (type) {
    case "integer": {
      const [min, max] = integerRange(schema, context);
      value = fc.integer({ min, max });
      break;
    }
    case "number": {
      const [min, max] = integerRange({ ...schema, exclusiveMinimum: undefined }, "text");
      value = fc.oneof(
        fc.integer({ min, max }),
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      );
      break;
    }
    case "boolean":
      value = fc.boolean();
      break;
    case "array":
      value = fc.array(validValue(schema.items ?? {}, name, context), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
      break;
    case "object": {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(properties).map(([key, property]) => {
        const arbitrary = validValue(property, key, context);
        return [key, required.has(key) ? arbitrary : fc.option(arbitrary, { nil: undefined })] as const;
      });
      value = fc
        .record(Object.fromEntries(entries))
        .map((record) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)));
      break;
    }
    default:
      value = validString(schema, name);
  }
  return schema.nullable || types(schema).includes("null")
    ? fc.oneof({ arbitrary: value, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 })
    : value;
}

/** A path segment that fits a parameter without a schema ("/product/:id", "/uploads/:file"). */
function validSegment(parameter: Parameter): fc.Arbitrary<string> {
  const name = parameter.name.toLowerCase();
  if (types(parameter.schema).includes("integer") || name === "id")
    return validValue({ type: "integer", minimum: 1, maximum: 40 }, name, "text").map(String);
  if (name === "file")
    return fc.constantFrom("1.svg", "laptop.svg", "0.svg", "phone.svg", "a.png", "index.html", "x");
  if (name === "kind") return fc.constantFrom("laptop", "phone", "category", "x");
  if (name === "*") return fc.constantFrom("", "index.html", "static/index.html", "json", "x");
  return validString(parameter.schema, parameter.name).map(encode);
}

// ---------------------------------------------------------------------------------------------------------
// Mutations: each one thing broken, named by what and by the class of the value.

const mutation = (label: string, apply: (draft: Draft) => void): Mutation => ({ label, apply });

function setQuery(draft: Draft, key: string, values: (string | null)[]) {
  draft.query = draft.query.filter(([k]) => k !== key);
  for (const value of values) draft.query.push([key, value]);
}

const REMOVE = Symbol("remove");

function setIn(value: unknown, path: string[], next: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return next;
  const object = value && typeof value === "object" && !Array.isArray(value) ? { ...(value as object) } : {};
  const record = object as Record<string, unknown>;
  if (rest.length === 0 && next === REMOVE) delete record[head];
  else record[head] = setIn(record[head], rest, next);
  return record;
}

const setRaw = (d: Draft, body: string | Buffer, type: string | null) => {
  d.json = undefined;
  d.raw = body;
  d.headers["content-type"] = type;
};

const m = {
  queryValue: (k: string, v: string) => mutation(`query:${k}=${classify(v)}`, (d) => setQuery(d, k, [v])),
  queryRepeated: (k: string, v: string, w: string) =>
    mutation(`query:${k}=repeated`, (d) => setQuery(d, k, [w, v])),
  queryArray: (k: string, suffix: string) =>
    mutation(`query:${k}[]=array-or-object`, (d) => {
      setQuery(d, k, []);
      d.query.push([k + encode(suffix), "1"]);
    }),
  queryNoEquals: (k: string) => mutation(`query:${k}=no-equals`, (d) => setQuery(d, k, [null])),
  queryMissing: (k: string) => mutation(`query:${k}=missing`, (d) => setQuery(d, k, [])),
  queryExtra: (k: string, v: string) => mutation(`query:extra-key`, (d) => void d.query.push([encode(k), v])),
  /** Undocumented routes (pages) read query keys too: every name of the document at once. */
  queryAll: (names: string[], label: string, values: (string | null)[]) =>
    mutation(`query:all-known=${label}`, (d) => {
      for (const name of names) setQuery(d, name, values);
    }),
  rawQuery: (q: string) => mutation(`query:raw-query`, (d) => void (d.rawQuery = q)),
  pathValue: (n: string, v: string) =>
    mutation(`path:${n}=${classify(v)}`, (d) => void (d.pathValues[n] = v)),
  pathSuffix: (suffix: string) => mutation(`path:suffix`, (d) => void (d.pathSuffix = suffix)),
  pathShape: (shape: string) =>
    mutation(`path:${shape}`, (d) => {
      if (shape === "upper") d.path = d.path.toUpperCase().replace(/:(\w+)/gi, (x) => x.toLowerCase());
      else if (shape === "double-slash") d.path = d.path.replaceAll("/", "//");
      else if (shape === "dot-segment") d.path = `/x/..${d.path}`;
      else d.path = d.path.replace(/\/(?=[^/]*$)/, "%2F");
    }),
  method: (method: string) => mutation(`method:${method}`, (d) => void (d.method = method)),
  header: (name: string, value: string) => mutation(`header:${name}`, (d) => void (d.headers[name] = value)),
  bodyValue: (path: string[], v: unknown) =>
    mutation(`body:${path.join(".")}=${classifyJson(v)}`, (d) => {
      if (d.json) d.json.value = setIn(d.json.value, path, v);
    }),
  bodyLiteral: (path: string[], literal: string) =>
    mutation(`body:${path.join(".")}=json-number-literal`, (d) => {
      const marker = `__fuzz_literal_${Object.keys(d.splices).length}__`;
      d.splices[marker] = literal;
      if (d.json) d.json.value = setIn(d.json.value, path, marker);
    }),
  bodyMissing: (path: string[]) =>
    mutation(`body:${path.join(".")}=missing`, (d) => {
      if (d.json) d.json.value = setIn(d.json.value, path, REMOVE);
    }),
  bodyExtra: (key: string, v: unknown) =>
    mutation(`body:extra-field`, (d) => {
      if (d.json && d.json.value && typeof d.json.value === "object") {
        const copy = { ...(d.json.value as object) } as Record<string, unknown>;
        Object.defineProperty(copy, key, { value: v, enumerable: true, configurable: true, writable: true });
        d.json.value = copy;
      }
    }),
  bodyWhole: (v: unknown) => mutation(`body:whole=${classifyJson(v)}`, (d) => void (d.json = { value: v })),
  malformed: (text: string) => mutation(`body:malformed-json`, (d) => setRaw(d, text, "application/json")),
  heavy: (label: string, body: string | Buffer, type: string) =>
    mutation(label, (d) => setRaw(d, body, type)),
  bom: () =>
    mutation(`body:bom`, (d) =>
      setRaw(d, "\ufeff" + JSON.stringify(d.json?.value ?? {}), "application/json"),
    ),
  utf16: () =>
    mutation(`body:utf16`, (d) =>
      setRaw(d, Buffer.from("\ufeff" + JSON.stringify(d.json?.value ?? {}), "utf16le"), "application/json"),
    ),
  invalidUtf8: () =>
    mutation(`body:invalid-utf8`, (d) =>
      setRaw(d, Buffer.from([0x7b, 0x22, 0xff, 0xc0, 0x80, 0x22, 0x3a, 0x31, 0x7d]), "application/json"),
    ),
  contentType: (type: string) =>
    mutation(`body:content-type=${type.slice(0, 30)}`, (d) => {
      d.headers["content-type"] = type;
      if (!d.json && d.raw === undefined) d.raw = "a=1&b=2";
    }),
  noContentType: () =>
    mutation(`body:no-content-type`, (d) => {
      d.headers["content-type"] = null;
      if (!d.json && d.raw === undefined) d.raw = "{}";
    }),
  multipart: (label: string, type: string | null, body: string | Buffer) =>
    mutation(`multipart:${label}`, (d) => setRaw(d, body, type)),
  jsonOn: (method: string) =>
    mutation(`body:json-on-${method.toLowerCase()}`, (d) => setRaw(d, '{"a":1}', "application/json")),
};

/** A property of the body's schema, with its path of keys. */
function propertyPaths(
  schema: JsonSchema,
  prefix: string[] = [],
  depth = 0,
): { path: string[]; required: boolean }[] {
  const out: { path: string[]; required: boolean }[] = [];
  if (depth > 2 || !schema.properties) return out;
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties)) {
    out.push({ path: [...prefix, key], required: required.has(key) });
    out.push(...propertyPaths(property, [...prefix, key], depth + 1));
  }
  return out;
}

const queryKeys = (target: Target, names: string[]) => {
  const declared = target.parameters.filter((p) => p.in === "query").map((p) => p.name);
  return declared.length > 0 ? declared : names;
};
const takesBody = (target: Target) =>
  Boolean(target.body) || ["POST", "PUT", "PATCH"].includes(target.method);
const EXTRA_KEYS = ["unknownKey", "__proto__", "constructor", "toString", "a[b]", "", "%00", "%ff"];
const ARRAY_SUFFIXES = ["[]", "[0]", "[a]", "[__proto__]", ".a"];
const RAW_QUERIES = [
  "",
  "&",
  "&&&",
  "=&=",
  "%",
  "a=%zz",
  "=1",
  "a=1&".repeat(3000),
  "__proto__[polluted]=1",
  "constructor[prototype][polluted]=1",
  "%ff=%ff",
  "a=1#frag",
  "?a=1",
];
const PATH_SEGMENTS = [
  "%2f",
  "a%2fb",
  "..%2f..",
  "%2e%2e",
  "%5c..%5c",
  "x".repeat(10_000),
  "1;x=y",
  "1.svg%00.png",
];
const PATH_SUFFIXES = [
  "/",
  "//",
  "/%00",
  "/..",
  "/../..",
  "/x",
  "/%2e%2e",
  ";a=b",
  "%00",
  "/" + "y".repeat(5000),
  "/.",
  "?",
];
const PATH_SHAPES = ["upper", "double-slash", "dot-segment", "encoded-slash"];
const BODY_EXTRA_KEYS = ["unknownField", "rol", "id", "__proto__", "constructor", "isAdmin", ""];

function queryMutations(target: Target, names: string[]): fc.Arbitrary<Mutation>[] {
  const key = fc.constantFrom(...queryKeys(target, names));
  const list: fc.Arbitrary<Mutation>[] = [
    fc.tuple(key, rawHostile).map(([k, v]) => m.queryValue(k, v)),
    fc
      .tuple(key, rawHostile, fc.constantFrom("1", "a", "true", "ASC"))
      .map(([k, v, w]) => m.queryRepeated(k, v, w)),
    fc.tuple(key, fc.constantFrom(...ARRAY_SUFFIXES)).map(([k, suffix]) => m.queryArray(k, suffix)),
    key.map((k) => m.queryNoEquals(k)),
    fc.tuple(fc.oneof(key, fc.constantFrom(...EXTRA_KEYS)), rawHostile).map(([k, v]) => m.queryExtra(k, v)),
    fc.constantFrom(...RAW_QUERIES).map((q) => m.rawQuery(q)),
  ];
  const required = target.parameters.filter((p) => p.in === "query" && p.required);
  if (required.length > 0) list.push(fc.constantFrom(...required).map((p) => m.queryMissing(p.name)));
  return list;
}

function pathMutations(target: Target): fc.Arbitrary<Mutation>[] {
  const list: fc.Arbitrary<Mutation>[] = [];
  const params = target.parameters.filter((p) => p.in === "path");
  if (params.length > 0) {
    const segment = fc.oneof(rawHostile, fc.constantFrom(...PATH_SEGMENTS));
    list.push(
      fc.tuple(fc.constantFrom(...params.map((p) => p.name)), segment).map(([n, v]) => m.pathValue(n, v)),
    );
  }
  list.push(
    fc.constantFrom(...PATH_SUFFIXES).map((suffix) => m.pathSuffix(suffix)),
    fc.constantFrom(...PATH_SHAPES).map((shape) => m.pathShape(shape)),
    fc
      .constantFrom(...METHODS.filter((x) => x !== target.method), "TRACE", "PROPFIND")
      .map((x) => m.method(x)),
  );
  return list;
}

function headerMutations(): fc.Arbitrary<Mutation>[] {
  const names = Object.keys(HEADER_VALUES);
  return [
    fc
      .constantFrom(...names)
      .chain((name) =>
        fc.constantFrom(...(HEADER_VALUES[name] ?? [""])).map((value) => m.header(name, value)),
      ),
    fc
      .string({
        unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)),
        maxLength: 200,
      })
      .map((value) => m.header("accept-language", value)),
  ];
}

function jsonBodyMutations(target: Target): fc.Arbitrary<Mutation>[] {
  const properties = propertyPaths(target.body?.schema ?? {});
  const list: fc.Arbitrary<Mutation>[] = [];
  if (properties.length > 0) {
    const property = fc.constantFrom(...properties);
    list.push(
      fc.tuple(property, jsonHostile).map(([p, v]) => m.bodyValue(p.path, v)),
      fc
        .tuple(property, fc.constantFrom(...RAW_JSON_NUMBERS))
        .map(([p, literal]) => m.bodyLiteral(p.path, literal)),
    );
    const required = properties.filter((p) => p.required);
    if (required.length > 0) list.push(fc.constantFrom(...required).map((p) => m.bodyMissing(p.path)));
  }
  list.push(
    fc.tuple(fc.constantFrom(...BODY_EXTRA_KEYS), jsonHostile).map(([key, v]) => m.bodyExtra(key, v)),
    jsonHostile.map((v) => m.bodyWhole(v)),
  );
  return list;
}

const CRLF = "\r\n";
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

function multipartBody(
  boundary: string,
  parts: { headers: string[]; content: Buffer | string }[],
  close = true,
) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}${CRLF}${part.headers.join(CRLF)}${CRLF}${CRLF}`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from(CRLF));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(chunks);
}

const filePart = (
  content: Buffer | string,
  disposition = 'form-data; name="file"; filename="a.png"',
  type = "image/png",
) => ({
  headers: [`Content-Disposition: ${disposition}`, `Content-Type: ${type}`],
  content,
});

/** Multipart bodies: a good one, and every way the envelope can be broken. */
const MULTIPART: [string, string | null, Buffer | string][] = [
  ["valid-png", "multipart/form-data; boundary=fuzzB", multipartBody("fuzzB", [filePart(PNG)])],
  ["no-boundary", "multipart/form-data", multipartBody("fuzzB", [filePart(PNG)])],
  ["empty-boundary", "multipart/form-data; boundary=", multipartBody("fuzzB", [filePart(PNG)])],
  ["boundary-mismatch", "multipart/form-data; boundary=other", multipartBody("fuzzB", [filePart(PNG)])],
  ["quoted-boundary", 'multipart/form-data; boundary="fuzz B"', multipartBody("fuzz B", [filePart(PNG)])],
  [
    "long-boundary",
    `multipart/form-data; boundary=${"b".repeat(200)}`,
    multipartBody("b".repeat(200), [filePart(PNG)]),
  ],
  ["truncated", "multipart/form-data; boundary=fuzzB", multipartBody("fuzzB", [filePart(PNG)], false)],
  ["empty-body", "multipart/form-data; boundary=fuzzB", ""],
  ["garbage-body", "multipart/form-data; boundary=fuzzB", "this is not multipart at all"],
  ["only-closing", "multipart/form-data; boundary=fuzzB", `--fuzzB--${CRLF}`],
  [
    "no-part-headers",
    "multipart/form-data; boundary=fuzzB",
    `--fuzzB${CRLF}${CRLF}data${CRLF}--fuzzB--${CRLF}`,
  ],
  [
    "no-filename",
    "multipart/form-data; boundary=fuzzB",
    multipartBody("fuzzB", [filePart(PNG, 'form-data; name="file"')]),
  ],
  [
    "wrong-field",
    "multipart/form-data; boundary=fuzzB",
    multipartBody("fuzzB", [filePart(PNG, 'form-data; name="other"; filename="a.png"')]),
  ],
  [
    "no-disposition",
    "multipart/form-data; boundary=fuzzB",
    multipartBody("fuzzB", [{ headers: ["Content-Type: image/png"], content: PNG }]),
  ],
  [
    "traversal-filename",
    "multipart/form-data; boundary=fuzzB",
    multipartBody("fuzzB", [filePart(PNG, 'form-data; name="file"; filename="../../etc/passwd"')]),
  ],
  [
    "nul-filename",
    "multipart/form-data; boundary=fuzzB",
    multipartBody("fuzzB", [filePart(PNG, 'form-data; name="file"; filename="a\u0000.png"')]),
  ],
  [
    "two-files",
    "multipart/form-data; boundary=fuzzB",
    multipartBody("fuzzB", [filePart(PNG), filePart(PNG)]),
  ],
  [
    "many-fields",
    "multipart/form-data; boundary=fuzzB",
    multipartBody(
      "fuzzB",
      Array.from({ length: 10 }, (_, i) => ({
        headers: [`Content-Disposition: form-data; name="f${i}"`],
        content: "v",
      })),
    ),
  ],
  [
    "big-field",
    "multipart/form-data; boundary=fuzzB",
    multipartBody("fuzzB", [
      { headers: ['Content-Disposition: form-data; name="f"'], content: "v".repeat(5000) },
      filePart(PNG),
    ]),
  ],
  [
    "svg-script",
    "multipart/form-data; boundary=fuzzB",
    multipartBody("fuzzB", [
      filePart(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        'form-data; name="file"; filename="a.svg"',
        "image/svg+xml",
      ),
    ]),
  ],
  ["text-as-png", "multipart/form-data; boundary=fuzzB", multipartBody("fuzzB", [filePart("hello")])],
  ["empty-file", "multipart/form-data; boundary=fuzzB", multipartBody("fuzzB", [filePart(Buffer.alloc(0))])],
  [
    "bad-part-header",
    "multipart/form-data; boundary=fuzzB",
    `--fuzzB${CRLF}Content-Disposition${CRLF}${CRLF}x${CRLF}--fuzzB--${CRLF}`,
  ],
  [
    "lf-only",
    "multipart/form-data; boundary=fuzzB",
    `--fuzzB\nContent-Disposition: form-data; name="file"; filename="a.png"\n\nx\n--fuzzB--\n`,
  ],
  [
    "charset-garbage",
    "multipart/form-data; boundary=fuzzB; charset=%ff",
    multipartBody("fuzzB", [filePart(PNG)]),
  ],
  ["mixed", "multipart/mixed; boundary=fuzzB", multipartBody("fuzzB", [filePart(PNG)])],
];

// Past the default 5 MiB upload limit.
const OVERSIZED_MULTIPART = multipartBody("fuzzB", [
  filePart(Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)])),
]);

/** Megabytes per request: tried once in the sweep, rarely in the random cases. */
const HEAVY: [string, string | Buffer, string][] = [
  ...DEEP_BODIES.map(([label, text]): [string, string, string] => [
    `body:${label}`,
    text,
    "application/json",
  ]),
  ["body:oversized", OVERSIZED_JSON, "application/json"],
  ["multipart:oversized-file", OVERSIZED_MULTIPART, "multipart/form-data; boundary=fuzzB"],
];

function rawBodyMutations(target: Target): fc.Arbitrary<Mutation>[] {
  const list: fc.Arbitrary<Mutation>[] = [
    fc.constantFrom(...MALFORMED_JSON).map((text) => m.malformed(text)),
    fc.constantFrom(m.bom(), m.utf16(), m.invalidUtf8(), m.noContentType()),
    fc.constantFrom(...CONTENT_TYPES).map((type) => m.contentType(type)),
    fc.constantFrom(...MULTIPART).map(([label, type, body]) => m.multipart(label, type, body)),
  ];
  if (!target.body) list.push(fc.constant(m.jsonOn(target.method)));
  const heavy = fc.constantFrom(...HEAVY).map(([label, body, type]) => m.heavy(label, body, type));
  return [fc.oneof({ arbitrary: fc.oneof(...list), weight: 15 }, { arbitrary: heavy, weight: 1 })];
}

// ---------------------------------------------------------------------------------------------------------
// Requests

function build(target: Target, draft: Draft, labels: string[]): FuzzRequest {
  let path = draft.path.replace(/:(\w+)/g, (_x, name: string) => draft.pathValues[name] ?? "");
  if (path.endsWith("*")) path = path.slice(0, -1) + (draft.pathValues["*"] ?? "");
  path += draft.pathSuffix;
  const query = draft.rawQuery ?? draft.query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join("&");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(draft.headers)) if (value !== null) headers[name] = value;
  let body: string | Buffer | undefined = draft.raw;
  if (draft.json) {
    body = JSON.stringify(draft.json.value) ?? "";
    for (const [marker, literal] of Object.entries(draft.splices))
      body = body.replace(`"${marker}"`, literal);
    if (!("content-type" in draft.headers)) headers["content-type"] = "application/json";
  }
  return {
    target: `${target.method} ${target.path}`,
    labels,
    method: draft.method,
    url: query === "" && draft.rawQuery === undefined ? path : `${path}?${query}`,
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** A valid-looking request for the target, from its schemas. */
function baseDraft(target: Target): fc.Arbitrary<Draft> {
  const pathParams = target.parameters.filter((p) => p.in === "path");
  const queryParams = target.parameters.filter((p) => p.in === "query");
  const pathValues = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [
        p.name,
        p.schema.type && p.schema.type !== "string"
          ? validValue(p.schema, p.name, "text").map((v) => encode(String(v)))
          : validSegment(p),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  const query = fc.tuple(
    ...queryParams.map((p) => {
      const value = validValue(p.schema, p.name, "text").map(
        (v) => [p.name, encode(String(v))] as [string, string],
      );
      return p.required ? value : fc.option(value, { nil: undefined });
    }),
  );
  const body = target.body ? validValue(target.body.schema, "body", "json") : fc.constant(undefined);
  return fc.record({ pathValues, query, body }).map(({ pathValues, query, body }): Draft => ({
    method: target.method,
    path: target.path,
    pathValues: { ...pathValues },
    pathSuffix: "",
    query: query.filter((q): q is [string, string] => q !== undefined),
    headers: {},
    splices: {},
    ...(target.body ? { json: { value: body } } : {}),
  }));
}

/** Requests for one target: valid-looking, with one to three things broken. */
function targetRequests(target: Target, queryNames: string[]): fc.Arbitrary<FuzzRequest> {
  const hasQuery = target.parameters.some((p) => p.in === "query");
  const hasPath = target.parameters.some((p) => p.in === "path");
  // A body route is mostly fuzzed through its body: a request whose body stays valid mostly tests the same
  // code again (and on login or register, pays for a password hash per identity).
  const family = (list: fc.Arbitrary<Mutation>[], weight: number) => ({
    arbitrary: fc.oneof(...list),
    weight,
  });
  const mutations = fc.oneof(
    family(queryMutations(target, queryNames), target.body ? 1 : hasQuery ? 5 : 2),
    family(pathMutations(target), hasPath ? 3 : 1),
    family(headerMutations(), 1),
    ...(target.body ? [family(jsonBodyMutations(target), 7)] : []),
    family(rawBodyMutations(target), takesBody(target) ? 4 : 1),
  );
  return fc
    .record({
      draft: baseDraft(target),
      mutations: fc.array(mutations, { minLength: 1, maxLength: 3, size: "xsmall" }),
    })
    .map(({ draft, mutations }) => {
      // fast-check reuses the generated draft while it shrinks the mutations: edit a copy.
      const copy = structuredClone(draft);
      for (const x of mutations) x.apply(copy);
      return build(
        target,
        copy,
        mutations.map((x) => x.label),
      );
    });
}

export interface FuzzCase {
  request: FuzzRequest;
  /** The hostile identity this case is also sent as (on top of guest, shopper and admin). */
  hostile: number;
}

/** Random cases over every target. Documented operations with inputs weigh more: they have more to break. */
export function fuzzCases(targets: Target[], hostileIdentities: number): fc.Arbitrary<FuzzCase> {
  const names = knownQueryNames(targets);
  const weight = (t: Target) =>
    t.source === "page" ? 1 : t.source === "router" ? 2 : t.parameters.length > 0 || t.body ? 8 : 3;
  const request = fc.oneof(
    ...targets.map((t) => ({ arbitrary: targetRequests(t, names), weight: weight(t) })),
  );
  return fc.record({ request, hostile: fc.nat(hostileIdentities - 1) });
}

// ---------------------------------------------------------------------------------------------------------
// The sweep: every single-thing-broken request of a short list, for every target, so the likely breakages
// are tried on every field of every route in every run, not left to chance.

const SWEEP_RAW = [
  "2147483648",
  "9223372036854775808",
  "99999999999",
  "-1",
  "0",
  "1.5",
  "NaN",
  "Infinity",
  "1e3",
  "007",
  "0x1F",
  "",
  "%00",
  "%01",
  "%0d%0a",
  "%ff",
  "%c0%80",
  "%ed%a0%80",
  "%",
  "..%2f..%2fetc%2fpasswd",
  "%F0%9F%98%80",
  "[]",
  "a".repeat(5000),
];
const SWEEP_JSON: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  2147483648,
  Number.MAX_SAFE_INTEGER + 2,
  "",
  "2147483648",
  "a\u0000b",
  "\u0001\u007f",
  "\ud800",
  "x".repeat(100_000),
  [],
  {},
];

export function sweepRequests(targets: Target[], seed: number): FuzzRequest[] {
  const names = knownQueryNames(targets);
  const requests: FuzzRequest[] = [];
  for (const target of targets) {
    const [base] = fc.sample(baseDraft(target), { seed, numRuns: 1 });
    if (!base) continue;
    const mutations: Mutation[] = [];
    const declared = target.parameters.filter((p) => p.in === "query");
    for (const p of declared) {
      for (const v of SWEEP_RAW) mutations.push(m.queryValue(p.name, v));
      mutations.push(m.queryRepeated(p.name, "a", "b"), m.queryArray(p.name, "[]"), m.queryNoEquals(p.name));
      if (p.required) mutations.push(m.queryMissing(p.name));
    }
    if (declared.length === 0) {
      mutations.push(
        m.queryAll(names, "int4-overflow", ["2147483648"]),
        m.queryAll(names, "repeated", ["a", "b"]),
        m.queryAll(names, "nul", ["%00"]),
        m.queryAll(names, "bad-percent-encoding", ["%ff"]),
        m.queryAll(names, "huge", ["a".repeat(3000)]),
        m.queryAll(names, "no-equals", [null]),
      );
    }
    mutations.push(m.queryExtra("__proto__", "1"), m.rawQuery("a=1&".repeat(3000)), m.rawQuery("%"));
    for (const p of target.parameters.filter((p) => p.in === "path")) {
      for (const v of [...SWEEP_RAW, ...PATH_SEGMENTS]) mutations.push(m.pathValue(p.name, v));
    }
    mutations.push(m.pathSuffix("/%00"), m.pathSuffix("/.."), m.pathShape("double-slash"));
    for (const p of propertyPaths(target.body?.schema ?? {})) {
      for (const v of SWEEP_JSON) mutations.push(m.bodyValue(p.path, v));
      mutations.push(m.bodyLiteral(p.path, "1e400"));
      if (p.required) mutations.push(m.bodyMissing(p.path));
    }
    if (target.body) {
      for (const text of MALFORMED_JSON) mutations.push(m.malformed(text));
      mutations.push(m.bodyExtra("__proto__", { polluted: true }), m.bodyExtra("unknownField", 1));
      for (const v of [null, [], "x", 1]) mutations.push(m.bodyWhole(v));
    }
    if (takesBody(target)) {
      for (const [label, body, type] of HEAVY) mutations.push(m.heavy(label, body, type));
      mutations.push(m.bom(), m.utf16(), m.invalidUtf8(), m.noContentType());
      for (const type of CONTENT_TYPES) mutations.push(m.contentType(type));
      for (const [label, type, body] of MULTIPART) mutations.push(m.multipart(label, type, body));
    } else {
      mutations.push(m.jsonOn(target.method));
    }
    for (const mutation of mutations) {
      const draft = structuredClone(base);
      mutation.apply(draft);
      requests.push(build(target, draft, [mutation.label]));
    }
  }
  return requests;
}

/** The target's valid-looking request, unbroken: what the hostile identities are tried with in the sweep. */
export function baseRequests(targets: Target[], seed: number): FuzzRequest[] {
  return targets.flatMap((target) =>
    fc.sample(baseDraft(target), { seed, numRuns: 1 }).map((draft) => build(target, draft, [])),
  );
}

import type { FastifyInstance } from "fastify";

/** The subset of JSON Schema that @fastify/swagger emits from our zod schemas. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  nullable?: boolean;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

export interface Parameter {
  in: "path" | "query";
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One method on one path: what the fuzzer aims at. */
export interface Target {
  method: string;
  /** Fastify's form: /api/products/:id, /api/docs/*. */
  path: string;
  /** "openapi" (with schemas), "router" (registered, not documented), "page" (a path the SPA draws). */
  source: "openapi" | "router" | "page";
  parameters: Parameter[];
  /** A JSON body schema. Routes without one (multipart uploads among them) get raw and multipart bodies. */
  body?: { contentType: string; schema: JsonSchema; required: boolean };
  secured: boolean;
}

/**
 * Paths the web app draws (SPA_ROUTES in modules/web/routes.ts) and files of the site. They are served by the
 * not-found handler, which no route list shows.
 */
export const PAGE_PATHS = [
  "/",
  "/products",
  "/product/:id",
  "/login",
  "/user",
  "/purchases",
  "/cart",
  "/wishlist",
  "/purchase",
  "/purchase/success",
  "/purchase/failure",
  "/profiles",
  "/admin",
  "/admin/products",
  "/admin/products/:id",
  "/admin/categories",
  "/admin/users",
  "/admin/sales",
  "/robots.txt",
  "/sitemap.xml",
  "/uploads/:file",
  "/illustrations/:kind/:file",
  "/illustrations/category/:file",
  "/favicon.ico",
  "/assets/:file",
  "/no-such-page",
];

const METHODS = ["get", "head", "post", "put", "patch", "delete", "options"];

/** {id} → :id */
const fastifyPath = (openapiPath: string) => openapiPath.replace(/\{([^}]+)\}/g, ":$1");

/**
 * Every method and path the app registered, read from Fastify's own route tree, so routes hidden from the
 * OpenAPI document (and any added later) are fuzzed too.
 */
export function registeredRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: { method: string; path: string }[] = [];
  for (const line of tree.split("\n")) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length / 4;
    const path = (stack[depth - 1] ?? "") + (match[2] ?? "");
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[3] ?? "").split(",").map((m) => m.trim())) {
      if (method) routes.push({ method, path: path.replace(/([^/])\*$/, "$1/*") });
    }
  }
  return routes;
}

/** The document's operations, the router's other routes, and the pages. Built from the running app only. */
export function fuzzTargets(app: FastifyInstance): Target[] {
  const document = app.swagger() as {
    paths?: Record<string, Record<string, Record<string, unknown>>>;
  };
  const targets: Target[] = [];
  const seen = new Set<string>();
  for (const [openapiPath, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.includes(method)) continue;
      const parameters = ((operation.parameters as Parameter[] | undefined) ?? [])
        .filter((p) => p.in === "path" || p.in === "query")
        .map((p) => ({ in: p.in, name: p.name, required: Boolean(p.required), schema: p.schema ?? {} }));
      const content = (
        operation.requestBody as
          { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined
      )?.content;
      const consumes = Object.keys(content ?? {})[0];
      const target: Target = {
        method: method.toUpperCase(),
        path: fastifyPath(openapiPath),
        source: "openapi",
        parameters,
        secured: Array.isArray(operation.security) && operation.security.length > 0,
      };
      if (consumes && content) {
        target.body = {
          contentType: consumes,
          schema: content[consumes]?.schema ?? {},
          required: Boolean((operation.requestBody as { required?: boolean }).required),
        };
      }
      targets.push(target);
      seen.add(`${target.method} ${target.path}`);
    }
  }
  for (const { method, path } of registeredRoutes(app)) {
    // HEAD is fuzzed as a method swap of every GET.
    if (method === "HEAD" || seen.has(`${method} ${path}`)) continue;
    seen.add(`${method} ${path}`);
    targets.push({ method, path, source: "router", parameters: pathParameters(path), secured: false });
  }
  for (const path of PAGE_PATHS) {
    if (seen.has(`GET ${path}`)) continue;
    seen.add(`GET ${path}`);
    targets.push({ method: "GET", path, source: "page", parameters: pathParameters(path), secured: false });
  }
  return targets;
}

function pathParameters(path: string): Parameter[] {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? "");
  if (path.endsWith("*")) names.push("*");
  return names.map((name) => ({ in: "path", name, required: true, schema: { type: "string" } }));
}

/** Every query parameter name of the document: tried on routes that declare none (pages read them too). */
export function knownQueryNames(targets: Target[]): string[] {
  const names = new Set<string>();
  for (const target of targets) for (const p of target.parameters) if (p.in === "query") names.add(p.name);
  return [...names].sort();
}

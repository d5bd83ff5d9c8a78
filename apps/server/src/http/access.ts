import type { FastifyInstance, FastifyRequest } from "fastify";
import { NotAllowed, NotSignedIn } from "../errors";
import { SECOND_FACTOR_REQUIRED } from "@voltio/domain/second-factor";
import { ROLE_CHANGED_HEADER } from "../modules/auth/access-token";
import type { Caller } from "../modules/identity/caller";

/** Who may call a route (docs/product-rules.md §11): anyone, a signed-in user (admins too), or an admin. */
export const ACCESS_LEVELS = ["public", "user", "admin"] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

/** Reads the caller behind a request's bearer token: null for a guest, a refusal for a bad token. */
export type Identify = (request: FastifyRequest) => Promise<Caller | null>;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Required on every /api route: the server refuses to start without it. */
    access?: Access;
    /** An HTML page under /api (the newsletter's unsubscribe link): the page's security headers, not the API's. */
    page?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in caller of a `user` or `admin` route; null on public routes. */
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** Every /api route with who may call it: the authorization matrix test walks this table. */
    routeAccess: readonly RouteAccess[];
  }
}

const isApi = (url: string) => url === "/api" || url.startsWith("/api/");
/** The OpenAPI document and its UI are registered by a plugin and are public by nature. */
const isDocs = (url: string) => url === "/api/docs" || /^\/api\/docs[/?]/.test(url);

/** A reply of the API (a request's URL, query included), not a page: the OpenAPI UI is a page. */
export const isApiCall = (url: string) => isApi(url) && !isDocs(url);

/**
 * Route guards by declaration: each /api route says who may call it in its options
 * (`config: { access: "user" }`), one hook enforces it before the body is even read, and a route that says
 * nothing stops the server at start instead of going out unguarded. Must be installed before any route.
 */
export function guardRoutes(
  app: FastifyInstance,
  identify: Identify,
  { adminRequireSecondFactor = false }: { adminRequireSecondFactor?: boolean } = {},
): void {
  const table: RouteAccess[] = [];
  app.decorate("routeAccess", table);
  app.decorateRequest("caller", null);

  app.addHook("onRoute", (route) => {
    if (!isApi(route.url) || isDocs(route.url)) return;
    const access = route.config?.access;
    const methods = ([] as string[]).concat(route.method);
    if (!access || !ACCESS_LEVELS.includes(access)) {
      throw new Error(
        `${methods.join(",")} ${route.url} declares no access: add config: { access: "public" | "user" | "admin" }`,
      );
    }
    for (const method of methods) {
      // HEAD routes are Fastify's automatic twins of GET routes.
      if (method !== "HEAD") table.push({ method, url: route.url, access });
    }
  });

  app.addHook("onRequest", (request, reply, done) => {
    const access = request.routeOptions.config.access;
    // Public routes (most requests) pass without a promise.
    if (access !== "user" && access !== "admin") return done();
    identify(request).then((caller) => {
      if (!caller) return done(new NotSignedIn("You must be logged in"));
      // Told on every reply, refusals too (a demoted admin's 403), until the client has a new token.
      if (caller.roleChanged) reply.header(ROLE_CHANGED_HEADER, caller.rol);
      if (access === "admin" && caller.rol !== "admin")
        return done(new NotAllowed("Only admins can do this"));
      // ASVS 4.3.1: the back office needs a second factor; the client sends the admin to set one up.
      if (access === "admin" && adminRequireSecondFactor && !caller.secondFactor)
        return done(
          new NotAllowed(
            "Admins must sign in with a second factor: set up two-step sign-in in your profile, or sign in again with it",
            { reason: SECOND_FACTOR_REQUIRED },
          ),
        );
      request.caller = caller;
      done();
    }, done);
  });
}

/** The caller of a `user` or `admin` route, which the guard has already checked. */
export function signedIn(request: FastifyRequest): Caller {
  if (!request.caller) throw new NotSignedIn("You must be logged in");
  return request.caller;
}

/** The caller of a buying route (lists, orders, payments): admins can't buy (docs/product-rules.md §11.1). */
export function signedInShopper(request: FastifyRequest): Caller {
  const caller = signedIn(request);
  if (caller.rol === "admin") throw new NotAllowed("Admins can't buy");
  return caller;
}

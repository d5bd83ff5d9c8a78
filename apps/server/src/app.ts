import Fastify, { type FastifyInstance } from "fastify";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config";
import type { Db } from "./db/client";
import { HttpError, TokenExpiredError } from "./http/errors";
import { CatalogCache } from "./http/catalog-cache";
import { demoLogStream } from "./http/demo-log";
import { authRoutes } from "./modules/auth/routes";
import { catalogRoutes } from "./modules/catalog/routes";
import { illustrationRoutes } from "./modules/illustrations/routes";
import { newsletterRoutes } from "./modules/newsletter/routes";
import { uploadedFileRoutes, uploadRoutes } from "./modules/uploads/routes";
import { userRoutes } from "./modules/users/routes";
import { webRoutes } from "./modules/web/routes";
import { loadShell } from "./modules/web/shell";

export interface AppDeps {
  config: Config;
  db: Db;
  /** Anonymous catalogue replies and filter counts; cleared whenever a product, category or sale changes. */
  catalogCache: CatalogCache;
}

export type App = FastifyInstance;

export async function buildApp(config: Config, db: Db): Promise<App> {
  const app = Fastify({
    logger:
      config.logLevel === "silent"
        ? false
        : config.demo
          ? { level: config.logLevel, stream: demoLogStream() }
          : { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // A number is how many proxies to trust (proxy-addr's hop count; Fastify's types only take a function).
    trustProxy:
      typeof config.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Replies are typed at compile time by the same zod schemas; re-validating every reply would only cost time.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        field:
          issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || String(issue.params?.issue ?? "body"),
        reason: issue.message ?? "is invalid",
      }));
      const first = details[0];
      return reply
        .code(400)
        .send({ error: first ? `${first.field}: ${first.reason}` : "Invalid request", details });
    }
    if (error instanceof TokenExpiredError) {
      return reply.code(403).send({ error: { name: "TokenExpiredError", message: error.message } });
    }
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ error: error.message, details: error.details });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ error: (error as Error).message });
    }
    request.log.error(error);
    return reply.code(500).send({ error: "Internal Server Error" });
  });

  const shell = loadShell(config.webDist);
  // 'Login with Google' loads Google's sign-in script and frame, only when it is configured.
  const google = config.google.clientId ? ["https://accounts.google.com"] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "https:"],
        scriptSrc: ["'self'", ...shell.scriptHashes, ...google.map((origin) => `${origin}/gsi/client`)],
        styleSrc: ["'self'", "'unsafe-inline'", ...google.map((origin) => `${origin}/gsi/style`)],
        connectSrc: ["'self'", ...google.map((origin) => `${origin}/gsi/`)],
        frameSrc: ["'self'", ...google.map((origin) => `${origin}/gsi/`)],
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Voltio API",
        description: "The store's HTTP API. Money is US dollars with 2 decimals.",
        version: "1",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });

  const deps: AppDeps = {
    config,
    db,
    catalogCache: new CatalogCache({
      replyTtlSeconds: config.catalogCacheTtlSeconds,
      countTtlSeconds: config.catalogCountCacheTtlSeconds,
    }),
  };
  await app.register(
    async (api) => {
      await api.register(catalogRoutes(deps));
      await api.register(authRoutes(deps));
      await api.register(userRoutes(deps));
      await api.register(uploadRoutes(deps));
      await api.register(newsletterRoutes(deps));
    },
    { prefix: "/api" },
  );
  await app.register(illustrationRoutes());
  await app.register(uploadedFileRoutes(deps));
  await app.register(webRoutes(deps, shell));
  return app;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Keeps a GET reply out of the anonymous catalogue cache. */
    noCache?: boolean;
  }
}

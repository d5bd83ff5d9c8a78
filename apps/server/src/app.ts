import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config";
import type { Db } from "./db/client";
import { guardRoutes, type Identify } from "./http/access";
import { outboxDepth } from "./integrations/mail/outbox";
import { startMailWorker } from "./integrations/mail/worker";
import { handleError } from "./http/error-handler";
import { finishHandlersOnClose } from "./http/in-flight";
import { shedLoad } from "./http/load-shedding";
import { refuseAmbiguousInput } from "./http/input-rules";
import { sendSecurityHeaders } from "./http/security-headers";
import { readCaller } from "./modules/auth/access-token";
import { setPasswordHashCost } from "./modules/auth/password";
import { demoLogStream } from "./http/demo-log";
import { catalogStructureRoutes } from "./modules/catalog-structure/routes";
import { adminCatalogRoutes } from "./modules/admin-catalog/routes";
import { auditRoutes } from "./modules/audit/routes";
import { authRoutes } from "./modules/auth/routes";
import { CatalogCache } from "./modules/catalog/cache";
import { watchHoldExpiries } from "./modules/catalog/hold-expiry";
import { catalogRoutes } from "./modules/catalog/routes";
import { illustrationRoutes } from "./modules/illustrations/routes";
import { newsletterRoutes } from "./modules/newsletter/routes";
import { personalizeNewsletter } from "./modules/newsletter/send";
import { networkRoutes } from "./modules/networks/routes";
import { healthRoutes } from "./modules/health/routes";
import { countRequests, createMetrics } from "./modules/metrics/registry";
import { metricsRoutes } from "./modules/metrics/routes";
import { createUploadStorage } from "./modules/uploads/storage";
import { shippedMigrations } from "./db/client";
import { listenForChanges } from "./db/changes";
import { orderRoutes } from "./modules/orders/routes";
import { paymentRoutes } from "./modules/payments/routes";
import { reviewRoutes } from "./modules/reviews/routes";
import { statsRoutes } from "./modules/stats/routes";
import { stockAlertRoutes } from "./modules/stock-alerts/routes";
import { STOCK_ALERT_SWEEP_MS, startStockAlertWorker } from "./modules/stock-alerts/worker";
import { createPaymentProvider } from "./integrations/payments/providers";
import { sandboxPageRoutes } from "./integrations/payments/sandbox-page";
import { checkoutPayable } from "./modules/payments/checkout";
import type { PaymentProvider } from "./integrations/payments/provider";
import { startPaymentsWorker, type PaymentsWorker } from "./modules/payments/worker";
import { uploadedFileRoutes, uploadRoutes } from "./modules/uploads/routes";
import { userRoutes } from "./modules/users/routes";
import { webRoutes } from "./modules/web/routes";
import { loadShell } from "./modules/web/shell";

declare module "fastify" {
  interface FastifyInstance {
    /** Sends due refunds and re-checks open checkouts (tests call its runOnce). */
    paymentsWorker: PaymentsWorker;
    /** The provider PAYMENT_PROVIDER names, as the payment routes use it. */
    paymentProvider: PaymentProvider;
    /** SIGTERM: readiness answers 503 from now on, so the balancer sends nothing new before the server closes. */
    startDraining(): void;
  }
}

export type App = FastifyInstance;

/** What tests may set beyond the configuration: the clock that decides which sales run today. */
export interface AppOptions {
  now?: () => Date;
  /**
   * Run the mail delivery worker in this process (the server does; tests deliver with their own worker's
   * runOnce()). It stops when the app closes.
   */
  mailWorker?: boolean;
  /** The sandbox provider notifies the store's webhook of each payment (default: with the mail worker). */
  sandboxNotifications?: boolean;
  /** When the sandbox tries an undelivered notification again (default: SANDBOX_RETRY_DELAYS_MS). */
  sandboxRetryDelaysMs?: readonly number[];
}

export async function buildApp(
  config: Config,
  db: Db,
  { now, mailWorker = false, sandboxNotifications = mailWorker, sandboxRetryDelaysMs }: AppOptions = {},
): Promise<App> {
  setPasswordHashCost(config.passwordHashCost);
  const app = Fastify({
    logger:
      config.logLevel === "silent"
        ? false
        : config.demo
          ? { level: config.logLevel, stream: demoLogStream() }
          : { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    // No deadline for a plugin to load: on a loaded machine the page renderer took longer than Fastify's 10 s and
    // the start failed. A plugin that really hangs shows in the start-up log; the operator's health check decides.
    pluginTimeout: 0,
    routerOptions: { ignoreTrailingSlash: true },
    // A path that isn't valid percent-encoding (/product/%ff) or a bad header: the same `{error, details}`
    // as any other refusal, not Fastify's own reply shape.
    frameworkErrors: (error, _request, reply) => {
      const field = error.code === "FST_ERR_BAD_URL" ? "path" : "request";
      const reason = error.code === "FST_ERR_BAD_URL" ? "is not valid percent-encoding" : "is malformed";
      void (reply as FastifyReply)
        .code(400)
        .send({ error: `${field}: ${reason}`, details: [{ field, reason }] });
    },
    // A number is how many proxies to trust (proxy-addr's hop count; Fastify's types only take a function).
    trustProxy:
      typeof config.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Replies are typed at compile time by the same zod schemas; re-validating every reply would only cost time.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setErrorHandler(handleError);

  const shell = loadShell(config.webDist);
  // 'Login with Google' loads Google's sign-in script and frame, only when it is configured.
  sendSecurityHeaders(app, {
    scriptHashes: shell.scriptHashes,
    google: config.google.clientId ? ["https://accounts.google.com"] : [],
  });
  // Before any hook that works for a request: an overloaded process refuses at once.
  const loadShedding = await shedLoad(app, config.loadShedding);
  refuseAmbiguousInput(app);
  const identify: Identify = (request) => readCaller(request, db, config.jwtSecret);
  guardRoutes(app, identify, { adminRequireSecondFactor: config.adminRequireSecondFactor });
  finishHandlersOnClose(app);

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

  // Each module gets only what it needs: no module imports the app, so nothing depends in a circle.
  const catalogCache = new CatalogCache({
    replyTtlSeconds: config.catalogCacheTtlSeconds,
    countTtlSeconds: config.catalogCountCacheTtlSeconds,
  });
  const paymentProvider = await createPaymentProvider(config, db);
  const metrics = createMetrics({
    searchIndex: () => catalogCache.search.stats,
    loadShedding,
    mailOutbox: () => outboxDepth(db),
    pool: () => {
      const client = (
        db as unknown as { $client?: { totalCount?: number; idleCount: number; waitingCount: number } }
      ).$client;
      return client?.totalCount === undefined
        ? null
        : { total: client.totalCount, idle: client.idleCount, waiting: client.waitingCount };
    },
  });
  countRequests(app, metrics.registry);
  // Modules that queue mail (integrations/mail/outbox.ts) get `notifyMail` to call once their transaction
  // committed; without it, the message still goes out at the next poll.
  const mail = mailWorker
    ? startMailWorker({
        db,
        config,
        log: app.log,
        personalize: personalizeNewsletter(config),
        metrics: metrics.workers,
      })
    : undefined;
  app.addHook("onClose", async () => {
    await mail?.stop();
  });
  const notifyMail = () => mail?.notify();
  const uploads = createUploadStorage(config);
  // Back-in-stock requests: swept after an admin's product write, when stock or holds
  // move (the change feed below), and every 30 s for holds that simply expired; tests call sweep().
  const stockAlerts = startStockAlertWorker({
    db,
    storeUrl: config.publicUrl,
    log: app.log,
    pollMs: STOCK_ALERT_SWEEP_MS,
    background: mailWorker,
    metrics: metrics.workers,
    onQueued: notifyMail,
  });
  app.addHook("onClose", async () => {
    await stockAlerts.stop();
  });
  // A hold's end writes nothing: each process drops its copies that counted it when it ends, and sends the
  // back-in-stock requests its units answer.
  const holdExpiries = watchHoldExpiries({
    db,
    onExpired: () => {
      catalogCache.holdsChanged();
      stockAlerts.notify();
    },
    log: app.log,
  });
  app.addHook("onClose", () => holdExpiries.close());
  // Every process's writes (and SQL by hand): this process's copies of the catalogue follow within a second.
  const changes = await listenForChanges(db, config.databaseUrl, {
    onChange: (change) => {
      catalogCache.changed(change);
      if (change.kind === "holds" || change.kind === "catalog") holdExpiries.changed();
      if (change.kind !== "categories" && change.kind !== "links" && change.kind !== "reference")
        stockAlerts.notify();
    },
    // Also called when the connection is back after the database was away: the workers backing off go now.
    onMissed: () => {
      catalogCache.changed({ kind: "catalog" });
      holdExpiries.changed();
      stockAlerts.notify();
      notifyMail();
      paymentsWorker.notify();
    },
    log: app.log,
  });
  /** This process wrote to the catalogue: it serves what it wrote once the write's notification came back. */
  const catalogWritten = () => catalogCache.wroteHere(changes?.caughtUp() ?? Promise.resolve(false));
  app.addHook("onClose", async () => {
    await changes?.close();
  });
  let draining = false;
  app.decorate("startDraining", () => {
    draining = true;
  });
  // Refunds and re-checks run in every process (claimed with SKIP LOCKED); tests drive them with runOnce.
  const paymentsWorker = startPaymentsWorker({
    db,
    provider: paymentProvider,
    log: app.log,
    pollMs: config.paymentsPollMs,
    background: mailWorker,
    storeTimeZone: config.storeTimeZone,
    metrics: metrics.workers,
    onSettled: (settled) => {
      metrics.settled.inc({ outcome: settled.reply.Status });
      if (settled.mailed) notifyMail();
      if (settled.stockTaken) catalogWritten();
    },
  });
  app.decorate("paymentsWorker", paymentsWorker);
  app.decorate("paymentProvider", paymentProvider);
  app.addHook("onClose", async () => {
    await paymentsWorker.stop();
  });
  await app.register(
    async (api) => {
      await api.register(
        catalogRoutes({
          db,
          cache: catalogCache,
          identify,
          storeTimeZone: config.storeTimeZone,
          paymentProvider: paymentProvider.name,
          now,
        }),
      );
      await api.register(
        healthRoutes({
          db,
          migrations: shippedMigrations(),
          searchReady: () => catalogCache.search.built,
          listening: () => changes?.connected() ?? true,
          draining: () => draining,
        }),
      );
      await api.register(metricsRoutes({ registry: metrics.registry, token: config.metricsToken }));
      await api.register(authRoutes({ db, config, notifyMail }));
      await api.register(userRoutes({ db, config, notifyMail }));
      await api.register(uploadRoutes({ db, config, storage: uploads }));
      await api.register(newsletterRoutes({ db, config, notifyMail }));
      await api.register(networkRoutes({ db, catalogWritten }));
      await api.register(auditRoutes({ db }));
      await api.register(
        orderRoutes({
          db,
          reference: catalogCache.reference,
          storeTimeZone: config.storeTimeZone,
          now,
          notifyMail,
          catalogWritten,
          notifyRefunds: () => paymentsWorker.notify(),
          trackingUrlTemplates: config.trackingUrlTemplates,
        }),
      );
      await api.register(reviewRoutes({ db, identify, catalogWritten }));
      await api.register(
        adminCatalogRoutes({
          db,
          reference: catalogCache.reference,
          catalogWritten,
          afterStockWrite: () => stockAlerts.sweep(),
        }),
      );
      await api.register(catalogStructureRoutes({ db, catalogWritten }));
      await api.register(stockAlertRoutes({ db }));
      await api.register(statsRoutes({ db, storeTimeZone: config.storeTimeZone, now }));
      await api.register(
        paymentRoutes({
          db,
          provider: paymentProvider,
          returnOrigins: config.returnOrigins,
          notifyMail,
          catalogWritten,
          holdSeconds: config.stockHoldSeconds,
          storeTimeZone: config.storeTimeZone,
          onHoldsChange: () => {
            catalogCache.holdsChanged();
            // Without a change feed this process hears only of its own holds.
            if (!changes) holdExpiries.changed();
          },
          notifyRefunds: () => paymentsWorker.notify(),
          metrics,
        }),
      );
    },
    { prefix: "/api" },
  );
  // The sandbox's card page, and its notifications to the store's own webhook at its public address.
  if (config.payments.provider === "sandbox")
    await app.register(
      sandboxPageRoutes({
        db,
        webhookUrl: sandboxNotifications ? `${config.publicUrl}/api/sandbox/webhook` : undefined,
        webhookSecret: config.payments.webhookSecret,
        retryDelaysMs: sandboxRetryDelaysMs,
        payable: (tx, reference) => checkoutPayable(tx, reference, "sandbox"),
      }),
    );
  await app.register(illustrationRoutes());
  await app.register(uploadedFileRoutes({ storage: uploads }));
  await app.register(webRoutes({ db, config, catalogCache, now }, shell));

  return app;
}

import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import Fastify, { type InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_PROVIDERS, type PaymentProviderName } from "@voltio/domain/payments";
import { PRODUCT_CSV_COLUMNS } from "@voltio/domain/product-csv";
import { createTestApp, type TestContext } from "../../test/app";
import { SoftAuthenticator } from "../../test/webauthn-authenticator";
import { startPendingLogin } from "../modules/auth/second-factor/pending-login";
import {
  attributes,
  brands,
  bulkOrders,
  categories,
  checkouts,
  comments,
  emailChanges,
  orders,
  passkeys,
  passwordResetTokens,
  payments,
  productVariants,
  products,
  sales,
} from "../db/schema";
import { pendingTotpLogin, startedTotpSetUps } from "../../test/second-factor";
import { guardRoutes, type RouteAccess } from "./access";

/**
 * The authorization matrix (docs/product-rules.md §14.3): every /api route of the running app × guest, the user who owns
 * the data, another user and an admin, with the status each must get. It walks the app's own route table,
 * so a route added without a row here fails the test until someone decides who may call it. The payment
 * routes depend on PAYMENT_PROVIDER (`/api/stripe/pay`…): their rows say `:provider`, and the app is also
 * built with each provider that adds routes of its own (webhooks), whose tables are walked too. Pay and
 * feedback also answer at SPEC's client's `/api/mercadopago/…` under every provider: those are asked there.
 */
type Who = "guest" | "user" | "otherUser" | "admin";
const CALLERS: Who[] = ["guest", "user", "otherUser", "admin"];

interface Row {
  expect: Record<Who, number>;
  /**
   * A fresh request for each caller; targets belong to `user` (the demo shopper) unless said otherwise.
   * `provider` is the app's PAYMENT_PROVIDER.
   */
  request: (provider: PaymentProviderName) => Promise<InjectOptions> | InjectOptions;
}

const everyone = (status: number): Record<Who, number> => ({
  guest: status,
  user: status,
  otherUser: status,
  admin: status,
});
const signedInOnly = (status: number, otherUser = status, admin = status): Record<Who, number> => ({
  guest: 401,
  user: status,
  otherUser,
  admin,
});
const adminOnly = (status: number): Record<Who, number> => ({
  guest: 401,
  user: 403,
  otherUser: 403,
  admin: status,
});

const SHOPPER = { email: "shopper@voltio.test", password: "Shopper1234!" };
const ADDRESS = { city: "Lisbon", street: "Rua Augusta", streetNumber: 10, postalCode: "1100-048" };
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
  "hex",
);

let t: TestContext;
let otherUserId: number;
/** The app once more with each provider that has routes the sandbox hasn't; no request reaches the provider. */
let providerApps: { provider: PaymentProviderName; context: TestContext }[];
let serial = 0;

const PROVIDER_SETTINGS: Partial<Record<PaymentProviderName, Record<string, string>>> = {
  mercadopago: {
    MERCADOPAGO_ACCESS_TOKEN: "APP_USR-matrix",
    MERCADOPAGO_WEBHOOK_SECRET: "matrix-secret",
    MERCADOPAGO_API_URL: "http://127.0.0.1:9",
  },
  stripe: {
    STRIPE_SECRET_KEY: "sk_test_matrix",
    STRIPE_WEBHOOK_SECRET: "whsec_matrix",
    STRIPE_API_URL: "http://127.0.0.1:9",
  },
};

/** A route's row in MATRIX: the payment routes under `:provider`, whichever provider the app has. */
const PROVIDER_PATH = new RegExp(`^/api/(${PAYMENT_PROVIDERS.join("|")})/`);
const rowOf = ({ method, url }: Pick<RouteAccess, "method" | "url">) =>
  `${method} ${url.replace(PROVIDER_PATH, "/api/:provider/")}`;
/** The provider a payment route's path names, which may not be the app's own. */
const providerIn = (url: string) => PROVIDER_PATH.exec(url)?.[1] as PaymentProviderName | undefined;

const apps = () => [t, ...providerApps.map(({ context }) => context)];
const everyRoute = () => apps().flatMap((context) => context.app.routeAccess);

async function register(context = t): Promise<number> {
  const reply = await context.app.inject({
    method: "POST",
    url: "/api/user",
    payload: {
      firstName: "Matrix",
      lastName: "Row",
      email: `matrix-${++serial}@voltio.test`,
      password: "long-enough-1",
    },
  });
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json<{ id: number }>().id;
}

async function shopperAddressId(): Promise<number> {
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/user/direction",
    payload: ADDRESS,
    headers: await t.bearer(2),
  });
  const { directions } = reply.json<{ directions: { id: number }[] }>();
  return directions.at(-1)!.id;
}

/** A paid purchase of the demo shopper's (demo seed): its number. */
async function shopperPurchaseNumber(): Promise<string> {
  const [line] = await t.database.db
    .select({ checkoutId: orders.checkoutId })
    .from(orders)
    .where(and(eq(orders.userId, 2), isNotNull(orders.checkoutId)))
    .limit(1);
  return `V-${String(line!.checkoutId).padStart(6, "0")}`;
}

/** A fresh wishlist line of the demo shopper's (product 2 has stock to spare). */
async function shopperOrderId(): Promise<number> {
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/order",
    payload: { status: "inWishList", productId: 2 },
    headers: await t.bearer(2),
  });
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json<{ id: number }>().id;
}

/** A fresh review of the demo shopper's, of a product of its own (one review per product and customer). */
async function shopperReviewId(): Promise<number> {
  const [product] = await t.database.db
    .insert(products)
    .values({ title: `Matrix ${++serial}`, name: "row", priceCents: 100, stock: 1 })
    .returning({ id: products.id });
  const [review] = await t.database.db
    .insert(comments)
    .values({ userId: 2, productId: product!.id, rating: 4, content: "Matrix" })
    .returning({ id: comments.id });
  return review!.id;
}

/** A fresh product of no one's, for the admin routes that change or retire one. */
async function matrixProductId(stock = 1): Promise<number> {
  const [product] = await t.database.db
    .insert(products)
    .values({ title: `Matrix ${++serial}`, name: "row", priceCents: 100, stock })
    .returning({ id: products.id });
  return product!.id;
}

const MATRIX_PRODUCT = {
  title: "Matrix product",
  name: "row",
  price: "10.50",
  shippingCost: 0,
  description: "Made by the matrix",
  stock: 3,
  categories: ["Matrix"],
};

/** A fresh sale bound to a fresh product: the demo's prices stay as the other rows expect them. */
async function matrixSale(): Promise<{ id: number; payload: Record<string, unknown> }> {
  const payload = { description: "Matrix sale", percentage: 10, products: [await matrixProductId()] };
  const [sale] = await t.database.db
    .insert(sales)
    .values({ description: payload.description, percentage: payload.percentage })
    .returning({ id: sales.id });
  return { id: sale!.id, payload };
}

/** A password reset link's token for a fresh account, stored as the server stores it (its SHA-256). */
async function resetToken(): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await t.database.db.insert(passwordResetTokens).values({
    userId: await register(),
    tokenHash: createHash("sha256").update(token).digest("hex"),
    expiresAt: new Date(Date.now() + 60_000),
  });
  return token;
}

/** A passkey row of the demo shopper's, for the routes that rename or remove one. */
async function shopperPasskeyId(): Promise<number> {
  const [key] = await t.database.db
    .insert(passkeys)
    .values({ userId: 2, credentialId: `matrix-${++serial}`, publicKey: "AA", name: "Matrix" })
    .returning({ id: passkeys.id });
  return key!.id;
}

/** A software passkey of a fresh account's, added through the API: it signs each sign-in's challenge. */
let matrixAuthenticator: Promise<{ authenticator: SoftAuthenticator; userId: number }> | undefined;
const passkeyHolder = () =>
  (matrixAuthenticator ??= (async () => {
    const url = new URL(t.config.publicUrl);
    const authenticator = new SoftAuthenticator(url.hostname, url.origin);
    const userId = await register();
    const headers = await t.bearer(userId);
    const options = await t.app.inject({
      method: "POST",
      url: "/api/user/passkeys/options",
      headers,
      payload: { currentPassword: "long-enough-1" },
    });
    const { response } = authenticator.register(options.json());
    const added = await t.app.inject({
      method: "POST",
      url: "/api/user/passkeys",
      headers,
      payload: { response },
    });
    expect(added.statusCode, added.body).toBe(201);
    return { authenticator, userId };
  })());

/** A sign-in with the passkey alone, or (`secondStep`) as the second step of a login it opens. */
async function passkeySignIn(secondStep = false): Promise<{ token: string; response: object }> {
  const { authenticator, userId } = await passkeyHolder();
  const reply = secondStep
    ? await t.app.inject({
        method: "POST",
        url: "/api/user/login/second-factor/passkey/options",
        payload: { token: (await startPendingLogin(t.database.db, userId)).token },
      })
    : await t.app.inject({ method: "POST", url: "/api/user/login/passkey/options" });
  const { token, options } = reply.json<{ token: string; options: { challenge: string } }>();
  return { token, response: authenticator.assert(options) };
}

/** An e-mail change of a fresh account waiting for its link (`confirm`) or confirmed and revertible. */
async function emailChangeToken(link: "confirm" | "revert"): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const hash = createHash("sha256").update(token).digest("hex");
  const userId = await register();
  await t.database.db.insert(emailChanges).values({
    userId,
    oldEmail: `matrix-old-${userId}@voltio.test`,
    newEmail: `matrix-new-${userId}@voltio.test`,
    confirmTokenHash: link === "confirm" ? hash : randomBytes(32).toString("hex"),
    expiresAt: new Date(Date.now() + 60_000),
    ...(link === "revert" ? { confirmedAt: new Date(), revertTokenHash: hash } : {}),
  });
  return token;
}

/** A new login of the demo shopper's: its session id, the `sid` of its access token. */
async function shopperSessionId(): Promise<string> {
  const reply = await t.app.inject({ method: "POST", url: "/api/user/login", payload: SHOPPER });
  const [, payload] = reply.json<{ accessToken: string }>().accessToken.split(".");
  return (JSON.parse(Buffer.from(payload!, "base64url").toString()) as { sid: string }).sid;
}

async function refreshToken(): Promise<string> {
  const reply = await t.app.inject({ method: "POST", url: "/api/user/login", payload: SHOPPER });
  return reply.json<{ refreshToken: string }>().refreshToken;
}

function upload(): InjectOptions {
  const boundary = "matrix-boundary";
  return {
    method: "POST",
    url: "/api/uploads",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

/** A fresh brand, and a fresh attribute of a fresh category, for the admin routes that change or delete one. */
async function matrixBrandId(): Promise<number> {
  const [brand] = await t.database.db
    .insert(brands)
    .values({ name: `Matrix brand ${++serial}`, slug: `matrix-brand-${serial}` })
    .returning({ id: brands.id });
  return brand!.id;
}
async function matrixCategoryId(): Promise<number> {
  const [category] = await t.database.db
    .insert(categories)
    .values({ name: `Matrix category ${++serial}` })
    .returning({ id: categories.id });
  return category!.id;
}
async function matrixAttributeId(): Promise<number> {
  const [attribute] = await t.database.db
    .insert(attributes)
    .values({ categoryId: await matrixCategoryId(), key: "ram_gb", label: "RAM", type: "number" })
    .returning({ id: attributes.id });
  return attribute!.id;
}
/** A product in two variants, for the variant grid and retiring one. */
async function matrixVariantIds(): Promise<{ productId: number; variantId: number }> {
  const productId = await matrixProductId();
  const [variant] = await t.database.db
    .insert(productVariants)
    .values({
      productId,
      sku: `MATRIX-${++serial}`,
      options: { Colour: "White" },
      priceCents: 100,
      stock: 1,
      position: 1,
    })
    .returning({ id: productVariants.id });
  return { productId, variantId: variant!.id };
}

const MATRIX: Record<string, Row> = {
  "GET /api/brands": { expect: everyone(200), request: () => ({ url: "/api/brands" }) },
  "GET /api/products/:id/related": {
    expect: everyone(200),
    request: () => ({ url: "/api/products/11/related" }),
  },
  "GET /api/admin/products/export.csv": {
    expect: adminOnly(200),
    request: () => ({ url: "/api/admin/products/export.csv" }),
  },
  // A file of the columns alone: nothing to write, for anyone allowed to.
  "POST /api/admin/products/import": {
    expect: adminOnly(200),
    request: () => ({
      method: "POST",
      url: "/api/admin/products/import",
      headers: { "content-type": "text/csv" },
      payload: `${PRODUCT_CSV_COLUMNS.join(",")}\n`,
    }),
  },
  "GET /api/compare": { expect: everyone(200), request: () => ({ url: "/api/compare?ids=58,55" }) },
  "GET /api/attributes": { expect: everyone(200), request: () => ({ url: "/api/attributes" }) },
  "POST /api/brands": {
    expect: adminOnly(201),
    request: () => ({
      method: "POST",
      url: "/api/brands",
      payload: { name: `Matrix new brand ${++serial}` },
    }),
  },
  "PUT /api/brands/:id": {
    expect: adminOnly(200),
    request: async () => ({
      method: "PUT",
      url: `/api/brands/${await matrixBrandId()}`,
      payload: { name: `Matrix renamed ${++serial}` },
    }),
  },
  "DELETE /api/brands/:id": {
    expect: adminOnly(200),
    request: async () => ({ method: "DELETE", url: `/api/brands/${await matrixBrandId()}` }),
  },
  "POST /api/attributes": {
    expect: adminOnly(201),
    request: async () => ({
      method: "POST",
      url: "/api/attributes",
      payload: { categoryId: await matrixCategoryId(), key: "dpi", label: "DPI", type: "number" },
    }),
  },
  "PUT /api/attributes/:id": {
    expect: adminOnly(200),
    request: async () => ({
      method: "PUT",
      url: `/api/attributes/${await matrixAttributeId()}`,
      payload: { categoryId: await matrixCategoryId(), key: "ram_gb", label: "Memory", type: "number" },
    }),
  },
  "DELETE /api/attributes/:id": {
    expect: adminOnly(200),
    request: async () => ({ method: "DELETE", url: `/api/attributes/${await matrixAttributeId()}` }),
  },
  "PUT /api/products/:id/variants": {
    expect: adminOnly(200),
    request: async () => ({
      method: "PUT",
      url: `/api/products/${await matrixProductId()}/variants`,
      payload: { options: [], variants: [{ sku: `MATRIX-GRID-${++serial}`, price: 5, stock: 2 }] },
    }),
  },
  "DELETE /api/products/:id/variants/:variantId": {
    expect: adminOnly(200),
    request: async () => {
      const { productId, variantId } = await matrixVariantIds();
      return { method: "DELETE", url: `/api/products/${productId}/variants/${variantId}` };
    },
  },
  "GET /api/products": { expect: everyone(200), request: () => ({ url: "/api/products" }) },
  "GET /api/products/:id": { expect: everyone(200), request: () => ({ url: "/api/products/1" }) },
  "GET /api/categories": { expect: everyone(200), request: () => ({ url: "/api/categories" }) },
  // Back-in-stock requests of a sold-out product: each shopper's own; admins can't buy.
  ...Object.fromEntries(
    (["PUT", "DELETE", "GET"] as const).map((method) => [
      `${method} /api/product/:id/stock-alert`,
      {
        expect: signedInOnly(200, 200, 403),
        request: async () => ({ method, url: `/api/product/${await matrixProductId(0)}/stock-alert` }),
      },
    ]),
  ),
  "GET /api/networks": { expect: everyone(200), request: () => ({ url: "/api/networks" }) },
  "GET /api/store": { expect: everyone(200), request: () => ({ url: "/api/store" }) },
  "GET /api/sale": { expect: everyone(200), request: () => ({ url: "/api/sale" }) },
  "GET /api/auth/options": { expect: everyone(200), request: () => ({ url: "/api/auth/options" }) },
  "POST /api/products": {
    expect: adminOnly(201),
    request: () => ({ method: "POST", url: "/api/products", payload: MATRIX_PRODUCT }),
  },
  "PUT /api/products/:id": {
    expect: adminOnly(200),
    request: async () => ({
      method: "PUT",
      url: `/api/products/${await matrixProductId()}`,
      payload: MATRIX_PRODUCT,
    }),
  },
  "DELETE /api/products/:id": {
    expect: adminOnly(200),
    request: async () => ({ method: "DELETE", url: `/api/products/${await matrixProductId()}` }),
  },
  "POST /api/sale": {
    expect: adminOnly(201),
    request: async () => ({ method: "POST", url: "/api/sale", payload: (await matrixSale()).payload }),
  },
  "PUT /api/sale": {
    expect: adminOnly(200),
    request: async () => {
      const sale = await matrixSale();
      return { method: "PUT", url: "/api/sale", payload: { ...sale.payload, id: sale.id } };
    },
  },
  "DELETE /api/sale": {
    expect: adminOnly(200),
    request: async () => ({ method: "DELETE", url: `/api/sale?saleId=${(await matrixSale()).id}` }),
  },
  "GET /api/stats": { expect: adminOnly(200), request: () => ({ url: "/api/stats" }) },
  "POST /api/user/email": {
    expect: everyone(200),
    request: () => ({ method: "POST", url: "/api/user/email", payload: { email: SHOPPER.email } }),
  },
  "POST /api/user/login": {
    expect: everyone(200),
    request: () => ({ method: "POST", url: "/api/user/login", payload: SHOPPER }),
  },
  // Without GOOGLE_CLIENT_ID Google sign-in doesn't exist, for anyone.
  "POST /api/google/login": {
    expect: everyone(404),
    request: () => ({ method: "POST", url: "/api/google/login", payload: { tokenId: "x" } }),
  },
  "POST /api/user/password/forgot": {
    expect: everyone(202),
    request: () => ({ method: "POST", url: "/api/user/password/forgot", payload: { email: SHOPPER.email } }),
  },
  // A fresh account's link each time: a link works once.
  "POST /api/user/password/reset": {
    expect: everyone(200),
    request: async () => ({
      method: "POST",
      url: "/api/user/password/reset",
      payload: { token: await resetToken(), password: "long-enough-2" },
    }),
  },
  // Public: a link may be opened in a browser that isn't signed in. A fresh change each time: a link works once.
  "POST /api/user/email/confirm": {
    expect: everyone(200),
    request: async () => ({
      method: "POST",
      url: "/api/user/email/confirm",
      payload: { token: await emailChangeToken("confirm") },
    }),
  },
  "POST /api/user/email/revert": {
    expect: everyone(200),
    request: async () => ({
      method: "POST",
      url: "/api/user/email/revert",
      payload: { token: await emailChangeToken("revert") },
    }),
  },
  "POST /api/user/token": {
    expect: everyone(200),
    request: async () => ({
      method: "POST",
      url: "/api/user/token",
      payload: { token: await refreshToken() },
    }),
  },
  "DELETE /api/user/token": {
    expect: everyone(200),
    request: async () => ({
      method: "DELETE",
      url: "/api/user/token",
      payload: { token: await refreshToken() },
    }),
  },
  // Passkeys: each shopper's own; signing in with one is for anyone who holds one.
  // A wrong password for every caller: the right one is each account's own (passkeys.test.ts).
  "POST /api/user/passkeys/options": {
    expect: signedInOnly(400),
    request: () => ({
      method: "POST",
      url: "/api/user/passkeys/options",
      payload: { currentPassword: "not-the-password" },
    }),
  },
  // A made-up credential: what a caller may send is checked, the ceremony itself in passkeys.test.ts.
  "POST /api/user/passkeys": {
    expect: signedInOnly(400),
    request: () => ({ method: "POST", url: "/api/user/passkeys", payload: { response: { id: "x" } } }),
  },
  "GET /api/user/passkeys": { expect: signedInOnly(200), request: () => ({ url: "/api/user/passkeys" }) },
  "PATCH /api/user/passkeys/:id": {
    expect: signedInOnly(200, 404, 404),
    request: async () => ({
      method: "PATCH",
      url: `/api/user/passkeys/${await shopperPasskeyId()}`,
      payload: { name: "Matrix" },
    }),
  },
  "DELETE /api/user/passkeys/:id": {
    expect: signedInOnly(200, 404, 404),
    request: async () => ({ method: "DELETE", url: `/api/user/passkeys/${await shopperPasskeyId()}` }),
  },
  "POST /api/user/login/passkey/options": {
    expect: everyone(200),
    request: () => ({ method: "POST", url: "/api/user/login/passkey/options" }),
  },
  "POST /api/user/login/passkey": {
    expect: everyone(200),
    request: async () => ({ method: "POST", url: "/api/user/login/passkey", payload: await passkeySignIn() }),
  },
  "POST /api/user/login/second-factor/passkey/options": {
    expect: everyone(200),
    request: async () => ({
      method: "POST",
      url: "/api/user/login/second-factor/passkey/options",
      payload: { token: (await startPendingLogin(t.database.db, (await passkeyHolder()).userId)).token },
    }),
  },
  "POST /api/user/login/second-factor/passkey": {
    expect: everyone(200),
    request: async () => ({
      method: "POST",
      url: "/api/user/login/second-factor/passkey",
      payload: await passkeySignIn(true),
    }),
  },
  // Two-step sign-in: the login's code step is for whoever holds the step; the set-up is each user's own.
  "POST /api/user/login/second-factor": {
    expect: everyone(200),
    request: async () => ({
      method: "POST",
      url: "/api/user/login/second-factor",
      payload: await pendingTotpLogin(t),
    }),
  },
  "GET /api/user/second-factor": {
    expect: signedInOnly(200),
    request: () => ({ url: "/api/user/second-factor" }),
  },
  "POST /api/user/second-factor/totp": {
    expect: signedInOnly(200),
    request: () => ({ method: "POST", url: "/api/user/second-factor/totp" }),
  },
  // A set-up under way for each caller, and a wrong code: nobody's logins change for the other rows.
  "POST /api/user/second-factor/totp/confirm": {
    expect: signedInOnly(400),
    request: async () => ({
      method: "POST",
      url: "/api/user/second-factor/totp/confirm",
      payload: { code: (await startedTotpSetUps(t, [1, 2, otherUserId])).wrongCode },
    }),
  },
  // Nobody here has the app on: each caller is told so about their own account.
  "DELETE /api/user/second-factor/totp": {
    expect: signedInOnly(409),
    request: () => ({ method: "DELETE", url: "/api/user/second-factor/totp", payload: { code: "123456" } }),
  },
  "POST /api/user/second-factor/recovery-codes": {
    expect: signedInOnly(409),
    request: () => ({
      method: "POST",
      url: "/api/user/second-factor/recovery-codes",
      payload: { code: "123456" },
    }),
  },
  "POST /api/user": {
    expect: everyone(201),
    request: () => ({
      method: "POST",
      url: "/api/user",
      payload: {
        firstName: "New",
        lastName: "Comer",
        email: `new-${++serial}@voltio.test`,
        password: "long-enough-1",
      },
    }),
  },
  "GET /api/user": { expect: signedInOnly(200), request: () => ({ url: "/api/user" }) },
  "GET /api/user/sessions": { expect: signedInOnly(200), request: () => ({ url: "/api/user/sessions" }) },
  // A fresh session of the demo shopper's: anyone else's id answers as a missing one.
  "DELETE /api/user/sessions/:id": {
    expect: signedInOnly(200, 404, 404),
    request: async () => ({ method: "DELETE", url: `/api/user/sessions/${await shopperSessionId()}` }),
  },
  "DELETE /api/user/sessions": {
    expect: signedInOnly(200),
    request: () => ({ method: "DELETE", url: "/api/user/sessions" }),
  },
  "PUT /api/user": {
    expect: signedInOnly(200),
    request: () => ({ method: "PUT", url: "/api/user", payload: { newsletterSubscription: true } }),
  },
  "POST /api/user/direction": {
    expect: signedInOnly(201),
    request: () => ({ method: "POST", url: "/api/user/direction", payload: ADDRESS }),
  },
  // The shopper's address: another user, and even an admin, get the same 404 as for a missing one.
  "DELETE /api/user/direction/:id": {
    expect: signedInOnly(200, 404, 404),
    request: async () => ({ method: "DELETE", url: `/api/user/direction/${await shopperAddressId()}` }),
  },
  "GET /api/user/all": { expect: adminOnly(200), request: () => ({ url: "/api/user/all" }) },
  "GET /api/user/admin": { expect: adminOnly(200), request: () => ({ url: "/api/user/admin?search=a" }) },
  "GET /api/user/admin/:id/customer": {
    expect: adminOnly(200),
    request: () => ({ url: `/api/user/admin/${otherUserId}/customer` }),
  },
  "POST /api/emails": {
    expect: adminOnly(201),
    request: () => ({
      method: "POST",
      url: "/api/emails",
      payload: { title: "Matrix", message: "Row", receivers: ["matrix@elsewhere.test"] },
    }),
  },
  "GET /api/emails": { expect: adminOnly(200), request: () => ({ url: "/api/emails" }) },
  "POST /api/networks": {
    expect: adminOnly(200),
    request: () => ({
      method: "POST",
      url: "/api/networks",
      payload: { facebook: "https://facebook.com/x" },
    }),
  },
  "GET /api/audit": { expect: adminOnly(200), request: () => ({ url: "/api/audit?entity=user" }) },
  "PUT /api/user/admin": {
    expect: adminOnly(200),
    request: () => ({ method: "PUT", url: "/api/user/admin", payload: { id: otherUserId, rol: "user" } }),
  },
  "DELETE /api/user/admin": {
    expect: adminOnly(200),
    request: async () => ({ method: "DELETE", url: "/api/user/admin", payload: { id: await register() } }),
  },
  // Admins can't buy (docs/product-rules.md §11.1): every order route refuses them. Another user's line answers 404.
  "POST /api/order": {
    expect: signedInOnly(201, 201, 403),
    request: () => ({ method: "POST", url: "/api/order", payload: { status: "inWishList", productId: 3 } }),
  },
  "POST /api/order/merge": {
    expect: signedInOnly(200, 200, 403),
    request: () => ({
      method: "POST",
      url: "/api/order/merge",
      payload: { key: crypto.randomUUID(), inWishList: [{ productId: 5 }] },
    }),
  },
  // The demo shopper has a pending order to pay; the other user has nothing pending.
  "POST /api/:provider/pay": {
    expect: signedInOnly(200, 404, 403),
    request: (provider) => ({
      method: "POST",
      url: `/api/${provider}/pay`,
      // The test app's PUBLIC_URL: a checkout returns only to the store's configured addresses.
      payload: { baseURL: "http://localhost:3000" },
    }),
  },
  "GET /api/:provider/feedback": {
    expect: signedInOnly(404, 404, 403),
    request: (provider) => ({ url: `/api/${provider}/feedback?payment_id=sbx_pay_unknown` }),
  },
  // Public, as the provider calls it, but nothing without the provider's signature; a bearer token is no
  // signature.
  "POST /api/:provider/webhook": {
    expect: everyone(401),
    request: (provider) => ({
      method: "POST",
      url: `/api/${provider}/webhook`,
      payload: { type: "payment" },
    }),
  },
  "GET /api/order": {
    expect: signedInOnly(200, 200, 403),
    request: () => ({ url: "/api/order?status=inCart" }),
  },
  "GET /api/comment": { expect: everyone(200), request: () => ({ url: "/api/comment?productId=11" }) },
  // The demo shopper bought product 54 (demo seed); nobody else did.
  "POST /api/comment": {
    expect: signedInOnly(201, 403, 403),
    request: () => ({ method: "POST", url: "/api/comment", payload: { productId: 54, rating: 5 } }),
  },
  "PUT /api/comment": {
    expect: signedInOnly(200, 403, 403),
    request: async () => ({
      method: "PUT",
      url: "/api/comment",
      payload: { id: await shopperReviewId(), content: "Edited", rating: 3 },
    }),
  },
  // An admin may delete any review (recorded in the audit log).
  "DELETE /api/comment": {
    expect: signedInOnly(200, 403, 200),
    request: async () => ({
      method: "DELETE",
      url: "/api/comment",
      payload: { id: await shopperReviewId() },
    }),
  },
  // An admin moves purchases on: a shopper's wishlist line is no purchase.
  "PUT /api/order/:id": {
    expect: signedInOnly(200, 404, 409),
    request: async () => ({
      method: "PUT",
      url: `/api/order/${await shopperOrderId()}`,
      payload: { status: "inCart" },
    }),
  },
  "DELETE /api/order/:id": {
    expect: signedInOnly(200, 404, 403),
    request: async () => ({ method: "DELETE", url: `/api/order/${await shopperOrderId()}` }),
  },
  // The shopper's own cart line: another user's id refuses the whole call.
  "POST /api/order/bulk": {
    expect: signedInOnly(201, 404, 403),
    request: async () => {
      const reply = await t.app.inject({
        method: "POST",
        url: "/api/order",
        payload: { status: "inCart", productId: 4 },
        headers: await t.bearer(2),
      });
      return {
        method: "POST",
        url: "/api/order/bulk",
        payload: { orderIds: [reply.json<{ id: number }>().id] },
      };
    },
  },
  "GET /api/order/bulk": { expect: signedInOnly(200, 200, 403), request: () => ({ url: "/api/order/bulk" }) },
  // A purchase is its buyer's and the admins'; to anyone else it doesn't exist. Admins can't buy.
  "GET /api/order/purchases": {
    expect: signedInOnly(200, 200, 200),
    request: () => ({ url: "/api/order/purchases" }),
  },
  "GET /api/order/purchases/:number": {
    expect: signedInOnly(200, 404, 200),
    request: async () => ({ url: `/api/order/purchases/${await shopperPurchaseNumber()}` }),
  },
  "GET /api/order/purchases/:number/receipt": {
    expect: signedInOnly(200, 404, 200),
    request: async () => ({ url: `/api/order/purchases/${await shopperPurchaseNumber()}/receipt` }),
  },
  "POST /api/order/purchases/:number/buy-again": {
    expect: signedInOnly(200, 404, 403),
    request: async () => ({
      method: "POST",
      url: `/api/order/purchases/${await shopperPurchaseNumber()}/buy-again`,
      payload: {},
    }),
  },
  "GET /api/order/admin/bulk": { expect: adminOnly(200), request: () => ({ url: "/api/order/admin/bulk" }) },
  "GET /api/health/live": { expect: everyone(200), request: () => ({ url: "/api/health/live" }) },
  // Only with METRICS_TOKEN's bearer, which no caller of the matrix has: 404 to all.
  "GET /api/metrics": { expect: everyone(404), request: () => ({ url: "/api/metrics" }) },
  // Ready once the search index is built: a search first.
  "GET /api/health/ready": {
    expect: everyone(200),
    request: async () => {
      await t.app.inject({ url: "/api/products?search=laptop" });
      return { url: "/api/health/ready" };
    },
  },
  "GET /api/payment/admin": { expect: adminOnly(200), request: () => ({ url: "/api/payment/admin" }) },
  // A fresh approved payment of the demo shopper's each time: the refund is queued, not sent.
  "POST /api/payment/admin/:id/refund": {
    expect: adminOnly(200),
    request: async () => {
      const [checkout] = await t.database.db
        .insert(checkouts)
        .values({
          userId: 2,
          provider: "sandbox",
          status: "paid",
          orderIds: [],
          bulkOrderIds: [],
          amountCents: 1000,
          baseUrl: "http://localhost:3000",
          shippingAddress: { ...ADDRESS, floor: null, unit: null },
          providerPaymentId: `sbx_pay_matrix_${++serial}`,
        })
        .returning();
      const [payment] = await t.database.db
        .insert(payments)
        .values({
          provider: "sandbox",
          providerPaymentId: checkout!.providerPaymentId!,
          status: "approved",
          amountCents: 1000,
          checkoutId: checkout!.id,
        })
        .returning({ id: payments.id });
      return {
        method: "POST",
        url: `/api/payment/admin/${payment!.id}/refund`,
        payload: { reason: "Matrix" },
      };
    },
  },
  "GET /api/order/admin/export": {
    expect: adminOnly(200),
    request: () => ({ url: "/api/order/admin/export?userId=2" }),
  },
  // The same status again: the demo shopper's finished single purchase is left as it is.
  "PUT /api/order/admin/:id": {
    expect: adminOnly(200),
    request: async () => {
      const [order] = await t.database.db
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.status, "finished"), isNull(orders.bulkOrderId)))
        .limit(1);
      return { method: "PUT", url: `/api/order/admin/${order!.id}`, payload: { status: "finished" } };
    },
  },
  // The same status again: the demo shopper's bulk order is left as it is.
  "PUT /api/order/bulk/:id": {
    expect: adminOnly(200),
    request: async () => {
      const [bulk] = await t.database.db
        .select({ id: bulkOrders.id, status: bulkOrders.status })
        .from(bulkOrders)
        .where(eq(bulkOrders.userId, 2));
      return { method: "PUT", url: `/api/order/bulk/${bulk!.id}`, payload: { status: bulk!.status } };
    },
  },
  "POST /api/uploads": { expect: signedInOnly(201), request: upload },
  // A forged link is refused alike for everyone; signing in changes nothing.
  "GET /api/newsletter/unsubscribe": {
    expect: everyone(400),
    request: () => ({ url: "/api/newsletter/unsubscribe?token=forged" }),
  },
  "POST /api/newsletter/unsubscribe": {
    expect: everyone(400),
    request: () => ({ method: "POST", url: "/api/newsletter/unsubscribe?token=forged" }),
  },
};

beforeAll(async () => {
  [t, providerApps] = await Promise.all([
    createTestApp(),
    Promise.all(
      Object.entries(PROVIDER_SETTINGS).map(async ([provider, settings]) => ({
        provider: provider as PaymentProviderName,
        context: await createTestApp({ env: { PAYMENT_PROVIDER: provider, ...settings } }),
      })),
    ),
  ]);
  otherUserId = await register();
});
afterAll(async () => {
  await Promise.all(apps().map((context) => context.close()));
});

/** Each route × caller whose status isn't its row's. */
async function wrongAnswers(
  context: TestContext,
  provider: PaymentProviderName,
  routes: readonly RouteAccess[],
  otherUser: number,
) {
  const tokens: Record<Who, Record<string, string>> = {
    guest: {},
    user: await context.bearer(2),
    otherUser: await context.bearer(otherUser),
    admin: await context.bearer(1),
  };
  const wrong: string[] = [];
  for (const route of routes) {
    const row = MATRIX[rowOf(route)];
    if (!row) continue;
    for (const who of CALLERS) {
      const options = await row.request(providerIn(route.url) ?? provider);
      const reply = await context.app.inject({
        method: route.method,
        ...options,
        headers: { ...options.headers, ...tokens[who] },
      } as InjectOptions);
      if (reply.statusCode !== row.expect[who]) {
        wrong.push(
          `${route.method} ${route.url} as ${who}: ${reply.statusCode}, expected ${row.expect[who]} (${reply.body.slice(0, 120)})`,
        );
      }
    }
  }
  return wrong;
}

describe("the authorization matrix", () => {
  it("has a row for every /api route, and a route for every row", () => {
    const routes = new Set(everyRoute().map(rowOf));
    expect(
      [...routes].filter((route) => !(route in MATRIX)),
      "routes without a row in MATRIX",
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((row) => !routes.has(row)),
      "rows of routes that are gone",
    ).toEqual([]);
  });

  it("answers every route × caller as expected", async () => {
    const wrong = await wrongAnswers(t, "sandbox", t.app.routeAccess, otherUserId);
    // Each provider's own routes, in the app built with it.
    const sandboxRows = new Set(t.app.routeAccess.map(rowOf));
    for (const { provider, context } of providerApps) {
      const ownRoutes = context.app.routeAccess.filter((route) => !sandboxRows.has(rowOf(route)));
      wrong.push(...(await wrongAnswers(context, provider, ownRoutes, await register(context))));
    }
    expect(wrong).toEqual([]);
    // A bound for a hang, not a speed check: three apps × every route × four callers, on a busy CI.
  }, 120_000);

  it("checks the declaration against the rows: admin routes refuse users, user routes refuse guests", () => {
    for (const route of everyRoute()) {
      const cells = MATRIX[rowOf(route)]?.expect;
      if (!cells || route.access === "public") continue;
      expect(cells.guest, `${route.method} ${route.url}`).toBe(401);
      if (route.access === "admin")
        expect([cells.user, cells.otherUser], `${route.method} ${route.url}`).toEqual([403, 403]);
    }
  });
});

describe("route declarations", () => {
  it("stop the server at start when an /api route doesn't say who may call it", async () => {
    const app = Fastify();
    guardRoutes(app, async () => null);
    // As the app registers its modules: a plugin under the /api prefix.
    app.register(async (api) => api.get("/forgotten", async () => ({ secret: true })), { prefix: "/api" });
    await expect(app.ready()).rejects.toThrow(/GET \/api\/forgotten declares no access/);
  });

  it("leave routes outside /api (pages, pictures) to their own rules", async () => {
    const app = Fastify();
    guardRoutes(app, async () => null);
    app.get("/robots.txt", async () => "ok");
    app.get("/api/declared", { config: { access: "admin" } }, async () => ({ secret: true }));
    await app.ready();
    expect((await app.inject({ url: "/robots.txt" })).statusCode).toBe(200);
    expect(app.routeAccess).toEqual([{ method: "GET", url: "/api/declared", access: "admin" }]);
    await app.close();
  });
});

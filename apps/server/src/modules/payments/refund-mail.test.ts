import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../../test/app";
import { shop, SHOP_BASE_URL, type Headers, type Shop } from "../../../test/shop";
import { mailOutbox, payments, sandboxCharges, stockHolds } from "../../db/schema";
import { settlePayment } from "./settlement";

/**
 * Every refund the store decides on its own e-mails the buyer (the owner's refund template,
 * with the reason in English and Spanish), in the transaction that decides it, once; and a buyer whose
 * payment goes back is never told that payment confirmed an order.
 */
let t: TestContext;
let store: Shop;

beforeAll(async () => {
  t = await createTestApp();
  store = shop(t);
});
afterAll(() => t.close());

async function started(headers: Headers) {
  const reply = await t.app.inject({
    method: "POST",
    url: "/api/sandbox/pay",
    headers,
    payload: { baseURL: SHOP_BASE_URL },
  });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ id: string; init_point: string }>();
}

/** The return page's answer for a payment the card page approved: the settlement's outcome. */
async function returned(headers: Headers, initPoint: string, { anyway = false } = {}) {
  // Anyway: the provider takes the card whatever the store says (a hosted page closes late).
  const back = anyway ? await store.approvedAnyway(initPoint) : await store.payWithCard(initPoint);
  const reply = await t.app.inject({ url: `/api/sandbox/feedback${back.search}`, headers });
  expect(reply.statusCode, reply.body).toBe(200);
  return { status: reply.json<{ Status: string }>().Status, back };
}

const emailOf = async (headers: Headers) =>
  (await t.app.inject({ url: "/api/user", headers })).json<{ email: string }>().email;

async function paymentRow(providerPaymentId: string) {
  const [row] = await t.database.db
    .select()
    .from(payments)
    .where(eq(payments.providerPaymentId, providerPaymentId));
  return row!;
}

/**
 * The buyer's e-mail about the automatic refund of this payment: exactly one, to the buyer, with the amount
 * and both languages' reasons; and no order confirmation that names the refunded payment.
 */
async function refundMailFor(buyer: Headers, providerPaymentId: string, reason: { en: string; es: string }) {
  const payment = await paymentRow(providerPaymentId);
  const mails = await t.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.dedupeKey, `order-refund:automatic:${payment.id}`));
  expect(mails).toHaveLength(1);
  const [mail] = mails;
  expect(mail!.recipient).toBe(await emailOf(buyer));
  expect(mail!.subject).toMatch(/^Voltio: refund for order V-\d{6} \/ reembolso del pedido V-\d{6}$/);
  const dollars = `US$ ${(payment.amountCents / 100).toFixed(2)}`;
  expect(mail!.textBody).toContain(`refunding ${dollars} of your payment ${providerPaymentId}`);
  expect(mail!.textBody).toContain(`reembolsando ${dollars} de tu pago ${providerPaymentId}`);
  expect(mail!.textBody).toContain(`Why: ${reason.en}`);
  expect(mail!.textBody).toContain(`Motivo: ${reason.es}`);
  const confirmations = await store.confirmationsOf(payment.checkoutId);
  expect(confirmations.filter((sent) => sent.textBody.includes(providerPaymentId))).toEqual([]);
  return mail!;
}

describe("every automatic refund e-mails the buyer why", () => {
  it("a payment made in an old tab whose checkout a newer Pay replaced", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const oldTab = await started(me);
    await store.buyNow(me, await store.newProduct());
    const newTab = await started(me);
    // The old page was still open in another tab: its card is taken anyway.
    const old = await returned(me, oldTab.init_point, { anyway: true });
    expect(old.status).toBe("refund_needed");
    const mail = await refundMailFor(me, old.back.searchParams.get("payment_id")!, {
      en: "it was made on a checkout page that a newer one had replaced",
      es: "se hizo en una página de pago que otra más nueva había reemplazado",
    });
    // Its orders were never this checkout's: the mail links the buyer's purchases, where they wait.
    expect(mail.textBody).toContain(`See your purchases: ${SHOP_BASE_URL}/purchases`);
    // The newer page pays the orders, confirmed as usual.
    expect((await returned(me, newTab.init_point)).status).toBe("approved");
    expect(await store.confirmationsOf((await store.checkoutOf(newTab.id)).id)).toHaveLength(1);
  });

  it("a second payment of a checkout that was paid already: the order stands", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const tab = await started(me);
    const first = await returned(me, tab.init_point);
    expect(first.status).toBe("approved");
    const second = await returned(me, tab.init_point, { anyway: true });
    expect(second.status).toBe("refund_needed");
    const firstId = first.back.searchParams.get("payment_id")!;
    const mail = await refundMailFor(me, second.back.searchParams.get("payment_id")!, {
      en: `your order had already been paid with payment ${firstId}; this second payment goes back and your order stands.`,
      es: `tu pedido ya estaba pagado con el pago ${firstId}; este segundo pago se devuelve y tu pedido sigue en pie.`,
    });
    const checkout = await store.checkoutOf(tab.id);
    expect(mail.textBody).toContain(`See your order: ${SHOP_BASE_URL}/purchases/V-`);
    // The first payment's confirmation, and only it.
    const confirmations = await store.confirmationsOf(checkout.id);
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]!.textBody).toContain(firstId);
  });

  it("a payment that isn't the checkout's total, and one on the checkout it closed", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct({ priceCents: 2500, shippingCostCents: 0 }));
    const tab = await started(me);
    // The provider's books say another amount was paid (a tampered or partial payment).
    await t.database.db.update(sandboxCharges).set({ amountCents: 1 }).where(eq(sandboxCharges.id, tab.id));
    const short = await returned(me, tab.init_point);
    expect(short.status).toBe("amount_mismatch");
    await refundMailFor(me, short.back.searchParams.get("payment_id")!, {
      en: "it was for US$ 0.01, but your order's total was US$ 25.00; your orders were not paid and can be paid again.",
      es: "fue de US$ 0.01, pero el total de tu pedido era US$ 25.00; tus pedidos no quedaron pagos y podés pagarlos de nuevo.",
    });
    // Its page takes another card: the checkout is closed, so that money goes back too.
    const again = await returned(me, tab.init_point, { anyway: true });
    expect(again.status).toBe("refund_needed");
    await refundMailFor(me, again.back.searchParams.get("payment_id")!, {
      en: "it was made on a checkout page that had already been closed, so it paid for nothing.",
      es: "se hizo en una página de pago que ya estaba cerrada, así que no pagó nada.",
    });
    expect(await store.confirmationsOf((await store.checkoutOf(tab.id)).id)).toEqual([]);
  });

  it("a payment in another currency, once however often it is reported", async () => {
    const me = await store.newShopper();
    await store.buyNow(me, await store.newProduct());
    const tab = await started(me);
    const back = await store.payWithCard(tab.init_point);
    const checkout = await store.checkoutOf(tab.id);
    const foreign = store.paidInPesos(back.searchParams.get("payment_id")!, checkout);
    const settled = await settlePayment(t.database.db, t.app.paymentProvider, foreign);
    expect(settled).toMatchObject({ reply: { Status: "amount_mismatch" }, refundQueued: true, mailed: true });
    // The webhook's repeat: nothing more is refunded or mailed.
    const repeat = await settlePayment(t.database.db, t.app.paymentProvider, foreign);
    expect(repeat).toMatchObject({ refundQueued: false, mailed: false });
    await refundMailFor(me, foreign.id, {
      en: "it was made in ARS, but the store charges in US dollars; your orders were not paid and can be paid again.",
      es: "se hizo en ARS, pero la tienda cobra en dólares estadounidenses; tus pedidos no quedaron pagos y podés pagarlos de nuevo.",
    });
  });

  it("a payment whose order the buyer removed while its page was open", async () => {
    const me = await store.newShopper();
    const line = await store.buyNow(me, await store.newProduct());
    const tab = await started(me);
    const removed = await t.app.inject({ method: "DELETE", url: `/api/order/${line}`, headers: me });
    expect(removed.statusCode, removed.body).toBe(200);
    const paid = await returned(me, tab.init_point);
    expect(paid.status).toBe("refund_needed");
    await refundMailFor(me, paid.back.searchParams.get("payment_id")!, {
      en: "your orders had already been paid or cancelled when it arrived, so it paid for nothing.",
      es: "cuando llegó, tus pedidos ya estaban pagos o cancelados, así que no pagó nada.",
    });
  });

  it("a payment whose bulk order lost a line to the cart while its page was open", async () => {
    const me = await store.newShopper();
    const { lineIds } = await store.buyAll(me, [
      [await store.newProduct(), 1],
      [await store.newProduct(), 1],
    ]);
    const tab = await started(me);
    const back = await t.app.inject({
      method: "PUT",
      url: `/api/order/${lineIds[1]}`,
      headers: me,
      payload: { status: "inCart" },
    });
    expect(back.statusCode, back.body).toBe(200);
    const paid = await returned(me, tab.init_point);
    expect(paid.status).toBe("refund_needed");
    await refundMailFor(me, paid.back.searchParams.get("payment_id")!, {
      en: "your order changed after its checkout page was opened (a product went back to the cart), so the payment no longer matched it; what is left can be paid again.",
      es: "tu pedido cambió después de abrir la página de pago (un producto volvió al carrito), así que el pago ya no coincidía; lo que queda podés pagarlo de nuevo.",
    });
  });

  it("a payment that arrives after its hold expired and another buyer took the stock", async () => {
    const productId = await store.newProduct({ stock: 1 });
    const [a, b] = [await store.newShopper(), await store.newShopper()];
    await store.buyNow(a, productId);
    await store.buyNow(b, productId);
    const aTab = await started(a);
    await t.database.db
      .update(stockHolds)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(stockHolds.productId, productId));
    expect((await returned(b, (await started(b)).init_point)).status).toBe("approved");
    const late = await returned(a, aTab.init_point);
    expect(late.status).toBe("refund_needed");
    const mail = await refundMailFor(a, late.back.searchParams.get("payment_id")!, {
      en: "the products ran out before your payment arrived, so your order was cancelled.",
      es: "los productos se agotaron antes de que llegara tu pago, así que tu pedido fue cancelado.",
    });
    // The cancelled order is this checkout's: its page shows it.
    expect(mail.textBody).toContain(`See your order: ${SHOP_BASE_URL}/purchases/V-`);
    expect(await store.confirmationsOf((await store.checkoutOf(aTab.id)).id)).toEqual([]);
  });
});

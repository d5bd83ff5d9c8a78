import PDFDocument from "pdfkit";
import { formatDollars } from "@voltio/domain/money";
import type { Purchase } from "@voltio/domain/purchase";

/**
 * A purchase's receipt as a PDF: number, date, store, buyer, lines with their sales,
 * shipping, total and the payment's reference. pdfkit's built-in Helvetica needs no font file; the buyer
 * doesn't choose a language here, so labels say it in English and Spanish, as the e-mails do.
 */

export const STORE_NAME = "Voltio";

const money = (dollars: number) => `US$ ${formatDollars(dollars)}`;

const dateOf = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(new Date(iso));

/** The sale a line had, as the receipt names it. */
export function saleText(line: Purchase["lines"][number]): string | null {
  if (!line.sale) return null;
  const { percentage, discountedUnits } = line.sale;
  return discountedUnits > 0
    ? `${percentage}% OFF on ${discountedUnits} of ${line.amount} units`
    : `${percentage}% OFF`;
}

const COLUMNS = { title: 50, units: 300, unit: 345, shipping: 420, total: 490 } as const;
const RIGHT = 545;

export function receiptPdf(purchase: Purchase, timeZone: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    info: { Title: `Receipt ${purchase.number}`, Author: STORE_NAME, Subject: `Order ${purchase.number}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  doc.font("Helvetica-Bold").fontSize(22).text(STORE_NAME);
  doc.font("Helvetica").fontSize(10).fillColor("#555").text("Receipt / Recibo");
  doc.moveDown();
  doc.fillColor("#000").fontSize(11);
  const field = (label: string, value: string) => {
    doc.font("Helvetica-Bold").text(`${label}: `, { continued: true }).font("Helvetica").text(value);
  };
  field("Order / Pedido", purchase.number);
  field("Date / Fecha", dateOf(purchase.purchaseDate, timeZone));
  field(
    "Buyer / Comprador",
    `${purchase.buyer.firstName} ${purchase.buyer.lastName} <${purchase.buyer.email}>`,
  );
  const address = purchase.shippingAddress;
  if (address) {
    const floor = [address.floor, address.unit].filter(Boolean).join(" ");
    field(
      "Ship to / Envío a",
      `${address.street} ${address.streetNumber}${floor ? `, ${floor}` : ""}, ${address.postalCode} ${address.city}`,
    );
  }
  doc.moveDown();

  // The lines: title (wrapping), units, unit price, shipping and total on the first line of each.
  const header = (y: number) => {
    doc.font("Helvetica-Bold").fontSize(9);
    doc.text("Product / Producto", COLUMNS.title, y, { width: 240 });
    doc.text("Units", COLUMNS.units, y, { width: 40, align: "right" });
    doc.text("Unit price", COLUMNS.unit, y, { width: 70, align: "right" });
    doc.text("Shipping", COLUMNS.shipping, y, { width: 65, align: "right" });
    doc.text("Total", COLUMNS.total, y, { width: RIGHT - COLUMNS.total, align: "right" });
    doc
      .moveTo(COLUMNS.title, y + 14)
      .lineTo(RIGHT, y + 14)
      .strokeColor("#999")
      .stroke();
    return y + 20;
  };
  let y = header(doc.y);
  for (const line of purchase.lines) {
    if (y > 720) {
      doc.addPage();
      y = header(50);
    }
    doc.font("Helvetica").fontSize(9).fillColor("#000");
    doc.text(line.title, COLUMNS.title, y, { width: 240 });
    let bottom = doc.y;
    const sale = saleText(line);
    if (sale) {
      doc.fillColor("#b91c1c").text(`Sale / Oferta: ${sale}`, COLUMNS.title, bottom, { width: 240 });
      doc.fillColor("#000");
      bottom = doc.y;
    }
    doc.text(String(line.amount), COLUMNS.units, y, { width: 40, align: "right" });
    doc.text(money(line.unitPrice), COLUMNS.unit, y, { width: 70, align: "right" });
    doc.text(money(line.shipping), COLUMNS.shipping, y, { width: 65, align: "right" });
    doc.text(money(line.lineTotal), COLUMNS.total, y, { width: RIGHT - COLUMNS.total, align: "right" });
    y = Math.max(bottom, doc.y) + 6;
  }
  doc.moveTo(COLUMNS.title, y).lineTo(RIGHT, y).strokeColor("#999").stroke();
  y += 8;
  const sum = (label: string, value: number, bold = false) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(bold ? 12 : 10);
    doc.text(label, 300, y, { width: 170, align: "right" });
    doc.text(money(value), COLUMNS.shipping, y, { width: RIGHT - COLUMNS.shipping, align: "right" });
    y = doc.y + 4;
  };
  sum("Products / Productos", purchase.products);
  sum("Shipping / Envío", purchase.shipping);
  sum("Total", purchase.total, true);

  doc
    .font("Helvetica")
    .fontSize(10)
    .text("", COLUMNS.title, y + 12);
  if (purchase.payment) {
    const method = purchase.payment.method ? `, ${purchase.payment.method}` : "";
    field("Payment / Pago", `${purchase.payment.provider}${method}, reference ${purchase.payment.reference}`);
    if (purchase.payment.refunded > 0) field("Refunded / Reembolsado", money(purchase.payment.refunded));
  }
  doc.moveDown();
  doc
    .fontSize(8)
    .fillColor("#555")
    .text(`${STORE_NAME} — thank you for your purchase / gracias por tu compra.`, { align: "center" });
  doc.end();
  return done;
}

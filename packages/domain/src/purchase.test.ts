import { describe, expect, it } from "vitest";
import { DEFAULT_TRACKING_URL_TEMPLATES, carrierSchema, trackingNumberSchema, trackingUrl } from "./purchase";

describe("trackingUrl", () => {
  it.each([
    ["UPS", "1Z999", "https://www.ups.com/track?tracknum=1Z999"],
    ["ups", "1Z999", "https://www.ups.com/track?tracknum=1Z999"],
    [
      "correo argentino",
      "CP 12/3",
      "https://www.correoargentino.com.ar/formularios/e-commerce?id=CP%2012%2F3",
    ],
    ["Correo-Argentino", "X1", "https://www.correoargentino.com.ar/formularios/e-commerce?id=X1"],
    ["Moto Juan", "X1", null],
    [null, "X1", null],
    ["UPS", null, null],
  ])("%s %s → %s", (carrier, number, url) => {
    expect(trackingUrl(DEFAULT_TRACKING_URL_TEMPLATES, carrier, number)).toBe(url);
  });
});

describe("tracking as an admin types it", () => {
  it("is trimmed, and empty means none", () => {
    expect(trackingNumberSchema.parse("  1Z 999 ")).toBe("1Z 999");
    expect(trackingNumberSchema.parse("   ")).toBeUndefined();
    expect(carrierSchema.parse(" DHL ")).toBe("DHL");
  });
  it.each([["x".repeat(65)], ["a\u0000b"], ["a\nb"]])("refuses %j", (value) => {
    expect(trackingNumberSchema.safeParse(value).success).toBe(false);
  });
  it("refuses a carrier longer than 40 characters", () => {
    expect(carrierSchema.safeParse("c".repeat(41)).success).toBe(false);
  });
});

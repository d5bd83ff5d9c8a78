import { describe, expect, it } from "vitest";
import { dateStringIn, normalizeSaleDay, weekdayIn, isValidTimeZone } from "./weekday";

describe("normalizeSaleDay", () => {
  it.each([
    ["monday", "mon"],
    ["Tuesday", "tue"],
    ["wednesday", "wed"],
    ["thursday", "thu"],
    ["friday", "fri"],
    ["SATURDAY", "sat"],
    ["sunday", "sun"],
    ["mon", "mon"],
    ["sun", "sun"],
    ["all", "all"],
    [" All ", "all"],
  ])("%s → %s", (input, stored) => expect(normalizeSaleDay(input)).toBe(stored));

  it.each(["", "mo", "mond", "funday", "weekend", "al", "saturdays"])("rejects %j", (input) =>
    expect(normalizeSaleDay(input)).toBeNull(),
  );
});

describe("weekdayIn", () => {
  it("reads the weekday in the store's time zone, not the server's", () => {
    // Saturday 02:00 UTC is still Friday evening in New York.
    const instant = new Date("2026-11-21T02:00:00Z");
    expect(weekdayIn("UTC", instant)).toBe("sat");
    expect(weekdayIn("America/New_York", instant)).toBe("fri");
    expect(weekdayIn("Asia/Tokyo", new Date("2026-11-22T16:00:00Z"))).toBe("mon");
  });
  it("covers a whole week", () => {
    const days = Array.from({ length: 7 }, (_, i) =>
      weekdayIn("UTC", new Date(Date.UTC(2026, 10, 22 + i, 12))),
    );
    expect(days).toEqual(["sun", "mon", "tue", "wed", "thu", "fri", "sat"]);
  });
  it("validates time zone names", () => {
    expect(isValidTimeZone("Europe/Madrid")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
  });
});

describe("dateStringIn", () => {
  it("writes a moment as Date() does, in the store's time zone", () => {
    const instant = new Date("2026-11-05T03:04:05Z");
    expect(dateStringIn("UTC", instant)).toBe(
      "Thu Nov 05 2026 03:04:05 GMT+0000 (Coordinated Universal Time)",
    );
    expect(dateStringIn("America/Argentina/Buenos_Aires", instant)).toBe(
      "Thu Nov 05 2026 00:04:05 GMT-0300 (Argentina Standard Time)",
    );
    expect(dateStringIn("Asia/Kolkata", instant)).toBe(
      "Thu Nov 05 2026 08:34:05 GMT+0530 (India Standard Time)",
    );
  });
});

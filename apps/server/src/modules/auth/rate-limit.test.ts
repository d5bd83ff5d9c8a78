import { describe, expect, it } from "vitest";
import { loginDelayMs } from "./rate-limit";

describe("loginDelayMs (slowing down guesses of one e-mail from many addresses)", () => {
  const schedule = { after: 10, baseMs: 250, maxMs: 4000 };

  it("doesn't delay an e-mail under its failure limit", () => {
    for (const failures of [0, 1, 9]) expect(loginDelayMs(failures, schedule)).toBe(0);
  });

  it("doubles the delay with each further failure, up to the cap", () => {
    const delays = [10, 11, 12, 13, 14, 15].map((failures) => loginDelayMs(failures, schedule));
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 4000]);
  });

  it("stays at the cap however many failures pile up", () => {
    expect(loginDelayMs(10_000, schedule)).toBe(4000);
    expect(loginDelayMs(Number.MAX_SAFE_INTEGER, schedule)).toBe(4000);
  });

  it("is off with a base delay of 0", () => {
    expect(loginDelayMs(50, { ...schedule, baseMs: 0 })).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "./account-messages";
import { judgePassword, passwordUserInputs, passwordWeaknessMessage } from "./password-strength";

const ana = { firstName: "Ana María", lastName: "García-López", email: "ana.garcia@example.com" };

describe("new passwords (ASVS 2.1.7)", () => {
  it.each([
    ["12345678", "passwordCommon"],
    ["password", "passwordCommon"],
    ["Password1", "passwordCommon"],
    ["P@ssw0rd123!", "passwordCommon"],
    ["aaaaaaaa", "passwordPattern"],
    ["qwertyuiop", "passwordCommon"],
    ["zxcvbnm,./", "passwordPattern"],
    ["Admin1234!", "passwordCommon"],
    ["greenhouse", "passwordGuessable"],
    ["short1!", "passwordTooShort"],
  ] as const)("refuses %s as %s", async (password, weakness) => {
    const verdict = await judgePassword(password, {});
    expect(verdict.weakness).toBe(weakness);
    expect(verdict.score).toBeLessThan(3);
  });

  it("refuses the account's own name and e-mail, and the store's name, however decorated", async () => {
    for (const password of [
      "ana.garcia@example.com",
      "GarciaLopez2026",
      "garcialopezana",
      "AnaGarcia1",
      "voltio2026",
    ])
      expect((await judgePassword(password, ana)).weakness, password).toBe("passwordPersonal");
    // The same words are fine for someone else.
    expect((await judgePassword("GarciaLopez2026", {})).weakness).toBe(null);
  });

  it.each(["correct horse battery staple", "Kx9#mP2vLq", "Tu-casa-es-mi-casa", "Str0ng-Pa55phrase!"])(
    "accepts %s",
    async (password) => {
      const verdict = await judgePassword(password, ana);
      expect(verdict).toEqual({ score: expect.any(Number), weakness: null });
      expect(verdict.score).toBeGreaterThanOrEqual(3);
    },
  );

  it("judges a password of the longest allowed length quickly enough to run per request", async () => {
    const verdict = await judgePassword("aB3$".repeat(32), ana);
    expect(verdict.weakness).toBe("passwordPattern");
  });

  it("splits names and e-mails into the words a password might borrow", () => {
    expect(passwordUserInputs(ana)).toEqual(
      expect.arrayContaining([
        "ana maría",
        "maría",
        "garcía",
        "lópez",
        "ana.garcia@example.com",
        "garcia",
        "garcialopez",
        "lopez",
        "example",
      ]),
    );
    expect(passwordUserInputs({ firstName: "  ", email: null })).toEqual(["voltio"]);
  });

  it("answers each reason with a sentence of the account messages, for the API", () => {
    expect(passwordWeaknessMessage("passwordCommon")).toBe(ACCOUNT_MESSAGES.passwordCommon);
    expect(passwordWeaknessMessage("passwordTooShort")).toBe("At least 8 characters");
  });
});

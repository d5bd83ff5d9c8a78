import { describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES, accountMessageKey } from "./account-messages";
import {
  addressInputSchema,
  firstNameSchema,
  lastNameSchema,
  passwordChangeSchema,
  passwordForgotSchema,
  passwordResetFormSchema,
  passwordResetSchema,
  profilePictureSchema,
  registerSchema,
  userUpdateSchema,
} from "./account";

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe("register rules (docs/product-rules.md §9)", () => {
  const valid = { firstName: "Ada", lastName: "Lovelace", email: "ada@voltio.test", password: "analytical" };

  it("accepts a complete form and trims the e-mail", () => {
    expect(registerSchema.parse({ ...valid, email: "  ada@voltio.test " }).email).toBe("ada@voltio.test");
  });

  it.each([
    ["firstName", "", ACCOUNT_MESSAGES.firstNameRequired],
    ["firstName", "Ada  Mae", ACCOUNT_MESSAGES.firstNameLetters],
    ["firstName", "Ada1", ACCOUNT_MESSAGES.firstNameLetters],
    ["lastName", "L0velace", ACCOUNT_MESSAGES.firstNameLetters],
    ["lastName", "", ACCOUNT_MESSAGES.lastNameRequired],
    ["email", "", ACCOUNT_MESSAGES.emailRequired],
    ["email", "ada@", ACCOUNT_MESSAGES.emailInvalid],
    ["password", "", ACCOUNT_MESSAGES.passwordRequired],
    ["password", "1234567", ACCOUNT_MESSAGES.passwordTooShort],
  ])("%s = %j fails with '%s'", (field, value, message) => {
    expect(firstMessage(registerSchema.safeParse({ ...valid, [field]: value }))).toBe(message);
  });

  it("a missing field is a required one", () => {
    const { firstName: _, ...rest } = valid;
    expect(firstMessage(registerSchema.safeParse(rest))).toBe(ACCOUNT_MESSAGES.firstNameRequired);
  });
});

describe("names in any language (ADR 0016)", () => {
  it.each([
    "Lucía",
    "María José",
    "Núñez O'Brien",
    "O’Neil",
    "Jean-Luc",
    "Zoë",
    "Ærøskøbing",
    "Łukasz",
    "Влад",
    "李小龙",
    "Nguyễn",
    "ضياء",
  ])("accepts %j as a first and a last name", (name) => {
    expect(firstNameSchema.parse(name)).toBe(name);
    expect(lastNameSchema.parse(name)).toBe(name);
  });

  it("keeps one spelling: a combining accent is stored composed, the ends trimmed", () => {
    expect(firstNameSchema.parse(" Luci\u0301a ")).toBe("Lucía");
  });

  it.each([
    "R2D2",
    "Ann_Marie",
    "Ann.",
    "Ann  Marie",
    "Ann - Lee",
    "-Ann",
    "Ann-",
    "'Ann",
    "Ann''Lee",
    "Ann--Lee",
    "Ann\tMarie",
    "Ann\u00a0Marie",
    "<script>",
    "Ann😀",
    "\u0301Ann",
    "Ann\u0000",
  ])("refuses %j with SPEC's rule text", (name) => {
    expect(firstMessage(firstNameSchema.safeParse(name))).toBe(ACCOUNT_MESSAGES.firstNameLetters);
    expect(firstMessage(lastNameSchema.safeParse(name))).toBe(ACCOUNT_MESSAGES.firstNameLetters);
  });

  it("still caps the length", () => {
    expect(firstMessage(firstNameSchema.safeParse("A".repeat(51)))).toBe(ACCOUNT_MESSAGES.tooLong);
  });
});

describe("password reset bodies", () => {
  const token = "A".repeat(43);

  it("takes a 43-character base64url token and a new password by the registration rule", () => {
    expect(passwordResetSchema.safeParse({ token, password: "long-enough" }).success).toBe(true);
    expect(firstMessage(passwordResetSchema.safeParse({ token, password: "short" }))).toBe(
      ACCOUNT_MESSAGES.passwordTooShort,
    );
    expect(firstMessage(passwordResetSchema.safeParse({ token, password: "" }))).toBe(
      ACCOUNT_MESSAGES.passwordRequired,
    );
  });

  it.each(["", "short", "A".repeat(44), `${"A".repeat(42)}=`, `${"A".repeat(42)}/`])(
    "refuses the token %j as an invalid link",
    (bad) => {
      expect(firstMessage(passwordResetSchema.safeParse({ token: bad, password: "long-enough" }))).toBe(
        ACCOUNT_MESSAGES.resetLinkInvalid,
      );
    },
  );

  it("asks for an e-mail to send the link to", () => {
    expect(firstMessage(passwordForgotSchema.safeParse({ email: "" }))).toBe(ACCOUNT_MESSAGES.emailRequired);
  });
});

describe("new address rules", () => {
  const valid = { city: "Lisbon", street: "Rua Augusta", streetNumber: "100", postalCode: "1100" };

  it("converts streetNumber to a number; floor and unit are optional", () => {
    expect(addressInputSchema.parse(valid)).toEqual({ ...valid, streetNumber: 100, floor: null, unit: null });
    expect(addressInputSchema.parse({ ...valid, floor: " 3 ", unit: "" })).toMatchObject({
      floor: "3",
      unit: null,
    });
  });

  it.each(["city", "street", "streetNumber", "postalCode"])(
    "%s is required: 'Complete the required fields'",
    (field) => {
      expect(firstMessage(addressInputSchema.safeParse({ ...valid, [field]: "" }))).toBe(
        "Complete the required fields",
      );
      const { [field as keyof typeof valid]: _, ...rest } = valid;
      expect(firstMessage(addressInputSchema.safeParse(rest))).toBe("Complete the required fields");
    },
  );

  it("refuses a street number that isn't a whole number", () => {
    for (const streetNumber of ["12b", "1.5", "-3"]) {
      expect(firstMessage(addressInputSchema.safeParse({ ...valid, streetNumber }))).toBe(
        ACCOUNT_MESSAGES.streetNumberInvalid,
      );
    }
  });
});

describe("password change rules", () => {
  it("needs both boxes: 'Fill in the corresponding fields'", () => {
    expect(
      firstMessage(passwordChangeSchema.safeParse({ prevPassword: "", newPassword: "newpassword" })),
    ).toBe("Fill in the corresponding fields");
    expect(firstMessage(passwordChangeSchema.safeParse({ prevPassword: "old", newPassword: "" }))).toBe(
      "Fill in the corresponding fields",
    );
    expect(passwordChangeSchema.safeParse({ prevPassword: "old", newPassword: "newpassword" }).success).toBe(
      true,
    );
  });
});

describe("PUT /user body", () => {
  it("takes exactly one field", () => {
    expect(userUpdateSchema.safeParse({ firstName: "Ada" }).success).toBe(true);
    expect(userUpdateSchema.safeParse({ newsletterSubscription: false }).success).toBe(true);
    expect(userUpdateSchema.safeParse({ prevPassword: "old", newPassword: "newpassword" }).success).toBe(
      true,
    );
    expect(userUpdateSchema.safeParse({ direction: { id: 3, city: "Porto" } }).success).toBe(true);
    expect(firstMessage(userUpdateSchema.safeParse({}))).toBe(ACCOUNT_MESSAGES.oneField);
    expect(firstMessage(userUpdateSchema.safeParse({ firstName: "Ada", lastName: "L" }))).toBe(
      ACCOUNT_MESSAGES.oneField,
    );
  });

  it("refuses unknown keys such as rol", () => {
    expect(userUpdateSchema.safeParse({ rol: "admin" }).success).toBe(false);
  });
});

describe("profile pictures", () => {
  it.each([
    ["", true],
    ["/uploads/0123456789abcdef0123456789abcdef.webp", true],
    ["https://lh3.googleusercontent.com/a/photo=s96-c", true],
    ["http://example.test/a.png", false],
    ["javascript:alert(1)", false],
    ["data:image/png;base64,AAAA", false],
    ["/uploads/../jwt-secret", false],
    ['https://example.test/"onerror=alert(1)', false],
  ])("%s → %s", (value, ok) => {
    expect(profilePictureSchema.safeParse(value).success).toBe(ok);
  });
});

it("maps a message back to its key for translation", () => {
  expect(accountMessageKey("Complete the required fields")).toBe("completeRequired");
  expect(accountMessageKey("something else")).toBeUndefined();
});

it("the reset page needs the new password typed twice alike", () => {
  expect(passwordResetFormSchema.safeParse({ password: "long-enough", confirm: "long-enough" }).success).toBe(
    true,
  );
  const differ = passwordResetFormSchema.safeParse({ password: "long-enough", confirm: "long-enougH" });
  expect(differ.error?.issues[0]).toMatchObject({
    path: ["confirm"],
    message: ACCOUNT_MESSAGES.passwordsDiffer,
  });
  expect(firstMessage(passwordResetFormSchema.safeParse({ password: "short", confirm: "short" }))).toBe(
    ACCOUNT_MESSAGES.passwordTooShort,
  );
});

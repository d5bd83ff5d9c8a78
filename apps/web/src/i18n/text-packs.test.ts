import { afterAll, describe, expect, it } from "vitest";
import { en } from "./en";
import { accountEn } from "./account-en";
import { securityEn } from "./security-en";
import { shoppingEn } from "./shopping-en";
import { adminEn } from "./admin-en";
import { adminEs } from "./admin-es";
import { shoppingEs } from "./shopping-es";
import { loadTexts, setLanguage, translate } from "./index";

/** The texts of some screens only are chunks of their own (ADR 0006), loaded with those screens. */
describe("text packs", () => {
  afterAll(() => setLanguage("en"));

  it("leave every page without them until a screen loads them", async () => {
    expect(translate("en", "adminHome.welcome", { name: "Ana" })).toBe("adminHome.welcome");
    expect(translate("en", "cart.title")).toBe("cart.title");
    expect(translate("en", "nav.login")).toBe("Log in / Sign up");
    await loadTexts("admin", "shopping");
    expect(translate("en", "adminHome.welcome", { name: "Ana" })).toBe("Welcome, Admin Ana!");
    expect(translate("en", "cart.title")).toBe(shoppingEn.cart.title);
    expect(translate("en", "auth.pageTitle")).toBe("auth.pageTitle");
  });

  it("come in Spanish with the Spanish texts once they were asked for, English as the fallback", async () => {
    await setLanguage("es");
    expect(translate("es", "adminHome.welcome", { name: "Ana" })).toBe(
      adminEs.adminHome.welcome.replace("{{name}}", "Ana"),
    );
    expect(translate("es", "admin.menu.products")).toBe(adminEs.admin.menu.products);
    expect(adminEs.admin.menu.products).not.toBe(adminEn.admin.menu.products);
    expect(translate("es", "cart.title")).toBe(shoppingEs.cart.title);
  });

  it("never define a section twice: a key has one text in each language", () => {
    const sections = [en, accountEn, securityEn, shoppingEn, adminEn].flatMap((texts) => Object.keys(texts));
    expect(sections.filter((name, index) => sections.indexOf(name) !== index)).toEqual([]);
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { adminEn } from "./admin-en";
import { adminEs } from "./admin-es";
import { loadAdminTexts, setLanguage, translate } from "./index";

/** The back office's texts are a chunk of their own (ADR 0006): absent until the admin area asks for them. */
describe("loadAdminTexts", () => {
  afterAll(() => setLanguage("en"));

  it("leaves the storefront without the back office's texts until the admin area loads them", async () => {
    expect(translate("en", "adminHome.welcome", { name: "Ana" })).toBe("adminHome.welcome");
    expect(translate("en", "nav.login")).toBe("Log in / Sign up");
    await loadAdminTexts();
    expect(translate("en", "adminHome.welcome", { name: "Ana" })).toBe("Welcome, Admin Ana!");
  });

  it("loads them in Spanish with the Spanish texts once they were asked for, English as the fallback", async () => {
    await setLanguage("es");
    expect(translate("es", "adminHome.welcome", { name: "Ana" })).toBe(
      adminEs.adminHome.welcome.replace("{{name}}", "Ana"),
    );
    expect(translate("es", "admin.menu.products")).toBe(adminEs.admin.menu.products);
    expect(adminEs.admin.menu.products).not.toBe(adminEn.admin.menu.products);
  });
});

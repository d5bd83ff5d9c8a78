import { describe, expect, it } from "vitest";
import { en } from "./en";
import { es } from "./es";
import { currentLanguage, setLanguage, startLanguage, translate } from "./index";

describe("translate", () => {
  it("finds nested keys and fills placeholders", () => {
    expect(translate("en", "nav.login")).toBe("Log in / Sign up");
    expect(translate("en", "nav.quantity", { count: 3 })).toBe("Qty 3");
  });

  it("chooses the plural form by count", () => {
    expect(translate("en", "nav.cartCount", { count: 1 })).toBe("Shopping cart, 1 item");
    expect(translate("en", "nav.cartCount", { count: 2 })).toBe("Shopping cart, 2 items");
    expect(translate("en", "nav.cartCount", { count: 0 })).toBe("Shopping cart, 0 items");
  });

  it("leaves unknown placeholders and unknown keys visible instead of blank", () => {
    expect(translate("en", "nav.quantity")).toBe("Qty {{count}}");
    expect(translate("en", "nav.noSuchKey")).toBe("nav.noSuchKey");
  });

  it("loads Spanish on demand and falls back to English only before it is loaded", async () => {
    expect(translate("es", "nav.login")).toBe(en.nav.login);
    await setLanguage("es");
    expect(translate("es", "nav.login")).toBe(es.nav.login);
    expect(translate("es", "nav.cartCount", { count: 2 })).toBe(
      es.nav.cartCount_other.replace("{{count}}", "2"),
    );
    expect(document.documentElement.lang).toBe("es");
    expect(localStorage.getItem("lang")).toBe("es");
    expect(document.cookie).toContain("lang=es");
    await setLanguage("en");
  });

  it("starts in the saved choice, and gives a choice saved before the lang cookie existed its cookie", async () => {
    localStorage.setItem("lang", "es");
    document.cookie = "lang=; path=/; max-age=0";
    await startLanguage();
    expect(currentLanguage()).toBe("es");
    expect(document.cookie).toContain("lang=es");
    await setLanguage("en");
    localStorage.removeItem("lang");
  });

  it("starts in a language picked in the server's page before the app ran, and keeps it", async () => {
    // The header's picker as the server draws it in English.
    const drawPicker = () => {
      document.body.innerHTML =
        '<select id="language"><option value="en" selected="">EN</option><option value="es">ES</option></select>';
      return document.getElementById("language") as HTMLSelectElement;
    };
    // Moved to ES by the visitor.
    drawPicker().value = "es";
    await startLanguage();
    expect(currentLanguage()).toBe("es");
    expect(localStorage.getItem("lang")).toBe("es");
    expect(document.cookie).toContain("lang=es");

    // Left where the server drew it, the picker changes nothing.
    await setLanguage("en");
    drawPicker();
    await startLanguage();
    expect(currentLanguage()).toBe("en");
    document.body.innerHTML = "";
    localStorage.removeItem("lang");
  });
});

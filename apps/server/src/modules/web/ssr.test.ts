import { describe, expect, it } from "vitest";
import { requestLanguage } from "./ssr";

describe("requestLanguage", () => {
  it("follows the language switch's cookie first", () => {
    expect(requestLanguage("theme=dark; lang=es", "en-US")).toBe("es");
    expect(requestLanguage("lang=en", "es-ES,es;q=0.9")).toBe("en");
  });

  it("else follows the browser's first language, like the storefront does", () => {
    expect(requestLanguage(undefined, "es-AR,es;q=0.9,en;q=0.8")).toBe("es");
    expect(requestLanguage(undefined, "en-GB,es;q=0.5")).toBe("en");
    expect(requestLanguage(undefined, undefined)).toBe("en");
  });

  it("ignores languages the store doesn't speak and look-alike cookies", () => {
    expect(requestLanguage("lang=fr", "es")).toBe("es");
    expect(requestLanguage("xlang=es", undefined)).toBe("en");
    expect(requestLanguage("lang=esx", undefined)).toBe("en");
  });
});

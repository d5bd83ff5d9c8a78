import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

/** RETURN_ORIGINS: the addresses besides PUBLIC_URL that a checkout may send the shopper back to. */
const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), "voltio-config-")), ...env });

describe("the return origins", () => {
  it("are the store on this machine without PUBLIC_URL, as localhost or 127.0.0.1", () => {
    expect(load({ PORT: "4100" }).returnOrigins).toEqual(["http://localhost:4100", "http://127.0.0.1:4100"]);
  });

  it("are PUBLIC_URL's origin and RETURN_ORIGINS', each once, whatever their trailing slash or spaces", () => {
    const config = load({
      PUBLIC_URL: "https://shop.example.com/store/",
      RETURN_ORIGINS: " https://www.shop.example.com/, http://localhost:5173 ,https://shop.example.com,",
    });
    expect(config.returnOrigins).toEqual([
      "https://shop.example.com",
      "https://www.shop.example.com",
      "http://localhost:5173",
    ]);
    expect(load({ PUBLIC_URL: "https://shop.example.com", RETURN_ORIGINS: "" }).returnOrigins).toEqual([
      "https://shop.example.com",
    ]);
  });

  it.each([
    "shop.example.com",
    "https://shop.example.com/store",
    "https://shop.example.com?next=x",
    "https://shop.example.com#top",
    "https://user@shop.example.com",
    "javascript:alert(1)",
    "ftp://shop.example.com",
    "https://shop.example.com, not an origin",
  ])("refuses %s, naming the variable and the reason", (value) => {
    expect(() => load({ RETURN_ORIGINS: value })).toThrow(ConfigError);
    expect(() => load({ RETURN_ORIGINS: value })).toThrow(
      /RETURN_ORIGINS="[^"]*" must be comma-separated http\(s\) origins with no path/,
    );
  });
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_TRACKING_URL_TEMPLATES } from "@voltio/domain/purchase";
import { ConfigError, loadConfig } from "./config";

/** TRACKING_URL_TEMPLATES: the carriers' tracking pages, checked at start. */
const load = (value?: string) =>
  loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), "voltio-config-")),
    ...(value === undefined ? {} : { TRACKING_URL_TEMPLATES: value }),
  });

describe("TRACKING_URL_TEMPLATES", () => {
  it("defaults to the well-known carriers, also when empty", () => {
    expect(load().trackingUrlTemplates).toEqual(DEFAULT_TRACKING_URL_TEMPLATES);
    expect(load("").trackingUrlTemplates).toEqual(DEFAULT_TRACKING_URL_TEMPLATES);
  });

  it("takes a JSON map of carriers to https pages with {number}", () => {
    const templates = { OCA: "https://www.oca.com.ar/seguimiento?n={number}" };
    expect(load(JSON.stringify(templates)).trackingUrlTemplates).toEqual(templates);
  });

  it.each([
    "not json",
    "[]",
    '{"OCA":"https://www.oca.com.ar/seguimiento"}',
    '{"OCA":"javascript:alert({number})"}',
    '{"":"https://x.example/{number}"}',
  ])("refuses %s, naming the variable", (value) => {
    expect(() => load(value)).toThrow(ConfigError);
    expect(() => load(value)).toThrow(/TRACKING_URL_TEMPLATES/);
  });
});

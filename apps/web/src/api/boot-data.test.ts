import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  document.getElementById("boot-data")?.remove();
  vi.resetModules();
});

/** The page's data block as the server writes it (apps/server/src/modules/web/boot-data.ts). */
async function pageWith(data: unknown) {
  const element = document.createElement("script");
  element.type = "application/json";
  element.id = "boot-data";
  element.textContent = JSON.stringify(data);
  document.body.append(element);
  return import("./boot-data");
}

describe("bootReply", () => {
  it("gives a whole reply as fresh as the page, a brief one as stale (fetched again once drawn)", async () => {
    const listing = { products: [{ id: 1, description: "" }] };
    const { bootReply } = await pageWith({
      replies: { "/sale": [], "/products?offset=1": listing },
      brief: ["/products?offset=1"],
    });
    expect(bootReply("/sale").initialDataUpdatedAt()).toBe(performance.timeOrigin);
    expect(bootReply("/products?offset=1").initialData()).toEqual(listing);
    expect(bootReply("/products?offset=1").initialDataUpdatedAt()).toBe(0);
    expect(bootReply("/networks").initialData()).toBeUndefined();
    expect(bootReply("/networks").initialDataUpdatedAt()).toBeUndefined();
  });

  it("reads a page without brief replies, and a damaged block as no replies", async () => {
    const { bootReply } = await pageWith({ replies: { "/sale": [] } });
    expect(bootReply("/sale").initialDataUpdatedAt()).toBe(performance.timeOrigin);
    vi.resetModules();
    document.getElementById("boot-data")!.textContent = "{not json";
    const damaged = await import("./boot-data");
    expect(damaged.bootReply("/sale").initialData()).toBeUndefined();
  });
});

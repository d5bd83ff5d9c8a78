import { describe, it, expect } from "vitest";
import {
  ILLUSTRATION_KINDS,
  categoryIllustration,
  categoryIllustrationUrl,
  cleanLabel,
  escapeXml,
  illustrationUrl,
  kindForCategories,
  kindForCategory,
  productIllustration,
  type IllustrationKind,
} from "./svg";

/**
 * A deliberately strict mini XML check: every tag is well-formed and balanced, attribute values are quoted
 * and free of raw "<" or "&", and text only uses the five predefined entities or numeric ones.
 */
function assertWellFormedXml(xml: string): void {
  const entity = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi;
  const checkText = (text: string, where: string) => {
    const stripped = text.replace(entity, "");
    if (/[<&]/.test(stripped)) throw new Error(`raw markup character in ${where}: ${text.slice(0, 60)}`);
  };
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[A-Za-z][\w:.-]*="[^"]*")*)\s*(\/?)>/y;
  const stack: string[] = [];
  let roots = 0;
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (stack.length === 0 && text.trim() !== "")
      throw new Error(`text outside the root: ${text.slice(0, 60)}`);
    checkText(text, "text");
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    if (!m) throw new Error(`malformed tag at ${lt}: ${xml.slice(lt, lt + 60)}`);
    const [whole, closing, name, attrs = "", selfClosing] = m;
    for (const [, value = ""] of attrs.matchAll(/="([^"]*)"/g)) checkText(value, `attribute of <${name}>`);
    if (closing) {
      if (stack.pop() !== name) throw new Error(`unbalanced </${name}> at ${lt}`);
    } else if (!selfClosing) {
      if (stack.length === 0) roots++;
      stack.push(name!);
    } else if (stack.length === 0) {
      roots++;
    }
    i = lt + whole.length;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join("> <")}>`);
  if (roots !== 1) throw new Error(`expected one root element, found ${roots}`);
}

const byteLength = (s: string) => Buffer.byteLength(s, "utf8");
const bgStops = (svg: string) =>
  /<linearGradient id="bg"[^>]*><stop offset="0" stop-color="(#[0-9a-f]{6})"/.exec(svg)?.[1];

describe("assertWellFormedXml", () => {
  it("accepts good documents and rejects broken ones", () => {
    expect(() => assertWellFormedXml('<svg a="1"><g><rect/></g><text>a &amp; b</text></svg>')).not.toThrow();
    expect(() => assertWellFormedXml("<svg><g></svg>")).toThrow();
    expect(() => assertWellFormedXml("<svg><text>a & b</text></svg>")).toThrow();
    expect(() => assertWellFormedXml("<svg><text><script></text></svg>")).toThrow();
    expect(() => assertWellFormedXml('<svg a="<"></svg>')).toThrow();
    expect(() => assertWellFormedXml("<svg></svg><svg></svg>")).toThrow();
  });
});

describe("productIllustration", () => {
  it.each(ILLUSTRATION_KINDS)(
    "renders %s as a complete, well-formed 800x600 SVG for variants 0..17",
    (kind) => {
      for (let v = 0; v < 18; v++) {
        const svg = productIllustration(kind, v, "Acer Aspire 5");
        expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"')).toBe(true);
        expect(svg).toContain('viewBox="0 0 800 600"');
        expect(svg).toContain('role="img"');
        expect(svg).toContain("<title>Acer Aspire 5</title>");
        expect(svg.endsWith("</svg>")).toBe(true);
        assertWellFormedXml(svg);
      }
    },
  );

  it("stays under 6 KB even with the longest, most escaped label", () => {
    const worst = "&".repeat(40);
    for (const kind of ILLUSTRATION_KINDS) {
      for (let v = 0; v < 18; v++)
        expect(byteLength(productIllustration(kind, v, worst))).toBeLessThan(6 * 1024);
    }
  });

  it.each(ILLUSTRATION_KINDS)("gives %s six different pictures for variants 0..5", (kind) => {
    const pictures = new Set([0, 1, 2, 3, 4, 5].map((v) => productIllustration(kind, v, "Same label")));
    expect(pictures.size).toBe(6);
  });

  it("uses six different palettes, one per run of three views, repeating every 18", () => {
    for (const kind of ILLUSTRATION_KINDS) {
      const colours = [0, 3, 6, 9, 12, 15].map((v) => bgStops(productIllustration(kind, v, "")));
      expect(colours.every(Boolean)).toBe(true);
      expect(new Set(colours).size).toBe(6);
      // The three views of one product share its palette.
      expect(bgStops(productIllustration(kind, 4, ""))).toBe(colours[1]);
      expect(bgStops(productIllustration(kind, 5, ""))).toBe(colours[1]);
      expect(bgStops(productIllustration(kind, 21, ""))).toBe(colours[1]);
    }
  });

  it("changes the composition with variant % 3: front, three-quarter, detail close-up", () => {
    for (const kind of ILLUSTRATION_KINDS) {
      const [front = "", angled = "", detail = ""] = [0, 1, 2].map((v) => productIllustration(kind, v, ""));
      expect(front).toContain('<use href="#d"/>');
      expect(angled).toContain('<use href="#d" transform="matrix(');
      expect(detail).toContain('clip-path="url(#z)"');
      expect(detail.match(/<use href="#d"/g)).toHaveLength(2);
      // Same palette and composition, another background: products sharing a kind still differ.
      expect(productIllustration(kind, 18, "")).not.toBe(front);
      expect(bgStops(productIllustration(kind, 18, ""))).toBe(bgStops(front));
    }
  });

  it("draws a different device for every kind", () => {
    const pictures = new Set(ILLUSTRATION_KINDS.map((kind) => productIllustration(kind, 0, "")));
    expect(pictures.size).toBe(ILLUSTRATION_KINDS.length);
  });

  it("is deterministic", () => {
    for (const kind of ILLUSTRATION_KINDS) {
      expect(productIllustration(kind, 4, "Dell SE2422HX")).toBe(
        productIllustration(kind, 4, "Dell SE2422HX"),
      );
    }
  });

  it("treats odd variants as non-negative integers", () => {
    expect(productIllustration("mouse", -4, "")).toBe(productIllustration("mouse", 4, ""));
    expect(productIllustration("mouse", 4.7, "")).toBe(productIllustration("mouse", 4, ""));
    expect(productIllustration("mouse", Number.NaN, "")).toBe(productIllustration("mouse", 0, ""));
    assertWellFormedXml(productIllustration("mouse", 123_456_789, ""));
  });

  it("escapes the label in the title and on the tag", () => {
    const svg = productIllustration("laptop", 0, `<script>alert("x")</script>`);
    expect(svg).not.toContain("<script");
    expect(svg).not.toContain("</scri");
    const escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/scri";
    expect(svg).toContain(`<title>${escaped}</title>`);
    expect(svg).toContain(`>${escaped}</text>`);
    assertWellFormedXml(svg);
    const quotes = productIllustration("hdd", 1, `Tom's & "Jerry" <b>`);
    expect(quotes).toContain("Tom&#39;s &amp; &quot;Jerry&quot; &lt;b&gt;");
    assertWellFormedXml(quotes);
  });

  it("trims and truncates the label to 24 characters", () => {
    const svg = productIllustration("ssd", 0, "   SAMSUNG 980 SSD 1TB PCIe 3.0x4 NVMe   ");
    expect(svg).toContain("<title>SAMSUNG 980 SSD 1TB PCIe</title>");
    expect(svg).toContain(">SAMSUNG 980 SSD 1TB PCIe</text>");
    expect(svg).not.toContain("3.0x4");
  });

  it("drops characters XML cannot carry and never splits an emoji", () => {
    const svg = productIllustration("tablet", 0, "Tab\u0000\u0007 A8 \uD800 ok");
    expect(svg).toContain("<title>Tab A8  ok</title>");
    assertWellFormedXml(svg);
    expect(cleanLabel("😀".repeat(30))).toBe("😀".repeat(24));
  });

  it("uses the kind name as title and draws no tag when there is no label", () => {
    const svg = productIllustration("gaming", 0, "   ");
    expect(svg).toContain("<title>Gaming controller</title>");
    expect(svg).not.toContain('<text x="36"');
  });

  it("references nothing outside the document and uses the system font", () => {
    for (const kind of ILLUSTRATION_KINDS) {
      for (let v = 0; v < 6; v++) {
        const svg = productIllustration(kind, v, "Label");
        expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', "")).not.toMatch(/https?:|\/\//);
        for (const [, ref] of svg.matchAll(/(?:href="|url\()([^")]*)/g)) expect(ref).toMatch(/^#\w+$/);
        for (const text of svg.match(/<text [^>]*>/g) ?? []) {
          expect(text).toContain('font-family="system-ui, sans-serif"');
        }
        // Every url(#id) and href="#id" points at an element of the same document.
        for (const [, id] of svg.matchAll(/(?:href="|url\()#(\w+)/g)) expect(svg).toContain(`id="${id}"`);
      }
    }
  });
});

describe("categoryIllustration", () => {
  it.each(ILLUSTRATION_KINDS)("renders %s as a small, well-formed 400x300 SVG", (kind) => {
    const svg = categoryIllustration(kind);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg).toContain('viewBox="0 0 400 300"');
    expect(svg).toContain('width="400" height="300"');
    expect(svg).toMatch(/<title>[^<]+<\/title>/);
    expect(svg.endsWith("</svg>")).toBe(true);
    expect(byteLength(svg)).toBeLessThan(6 * 1024);
    assertWellFormedXml(svg);
    for (const [, id] of svg.matchAll(/(?:href="|url\()#(\w+)/g)) expect(svg).toContain(`id="${id}"`);
  });

  it("differs per kind", () => {
    expect(new Set(ILLUSTRATION_KINDS.map(categoryIllustration)).size).toBe(ILLUSTRATION_KINDS.length);
  });
});

describe("kindForCategories", () => {
  // The 59 demo products (apps/server/src/db/seed/catalog.json) and the picture each should get.
  const products: [number, string[], IllustrationKind][] = [
    [1, ["Computers", "Pc Desktop"], "desktop"],
    [2, ["Computers", "Pc Desktop"], "desktop"],
    [3, ["Computers", "Pc Desktop"], "desktop"],
    [4, ["Computers", "Pc Desktop", "Gaming"], "desktop"],
    [5, ["Computers", "Pc Desktop", "Gaming"], "desktop"],
    [6, ["Computers", "Pc Desktop", "Gaming"], "desktop"],
    [7, ["Peripheral"], "peripheral"],
    [8, ["Peripheral"], "peripheral"],
    [9, ["Peripheral", "Keyboards"], "keyboard"],
    [10, ["Peripheral", "Keyboards"], "keyboard"],
    [11, ["Peripheral", "Mouse"], "mouse"],
    [12, ["Peripheral", "Cameras"], "camera"],
    [13, ["Peripheral", "Keyboards"], "keyboard"],
    [14, ["Peripheral", "Keyboards"], "keyboard"],
    [15, ["Peripheral", "Keyboards"], "keyboard"],
    [16, ["Peripheral", "Mouse"], "mouse"],
    [17, ["Peripheral", "Mouse"], "mouse"],
    [18, ["Peripheral", "Mouse"], "mouse"],
    [19, ["Peripheral", "Mouse"], "mouse"],
    [20, ["Peripheral", "Cameras"], "camera"],
    [21, ["Peripheral", "Cameras"], "camera"],
    [22, ["Peripheral", "Cameras"], "camera"],
    [23, ["Peripheral", "Cameras"], "camera"],
    [24, ["Peripheral", "Cameras"], "camera"],
    [25, ["SSD", "Components", "Gaming"], "ssd"],
    [26, ["SSD", "Components", "Gaming"], "ssd"],
    [27, ["SSD", "Components"], "ssd"],
    [28, ["SSD", "Components"], "ssd"],
    [29, ["SSD", "Components"], "ssd"],
    [30, ["HDD", "Components"], "hdd"],
    [31, ["HDD", "Components"], "hdd"],
    [32, ["HDD", "Components"], "hdd"],
    [33, ["HDD", "Components"], "hdd"],
    [34, ["HDD", "Components"], "hdd"],
    [35, ["Printers", "Laser Printers"], "printer"],
    [36, ["Printers", "Laser Printers"], "printer"],
    [37, ["Printers", "Laser Printers"], "printer"],
    [38, ["Printers", "Deskjet Printers"], "printer"],
    [39, ["Printers", "Deskjet Printers"], "printer"],
    [40, ["Printers", "Deskjet Printers"], "printer"],
    [41, ["Printers", "Deskjet Printers"], "printer"],
    [42, ["Printers", "Deskjet Printers"], "printer"],
    [43, ["Tablets"], "tablet"],
    [44, ["Tablets"], "tablet"],
    [45, ["Tablets"], "tablet"],
    [46, ["Tablets"], "tablet"],
    [47, ["Tablets"], "tablet"],
    [48, ["Monitors"], "monitor"],
    [49, ["Monitors"], "monitor"],
    [50, ["Monitors"], "monitor"],
    [51, ["Monitors"], "monitor"],
    [52, ["Monitors"], "monitor"],
    [53, ["Laptops", "Computers"], "laptop"],
    [54, ["Laptops", "Computers"], "laptop"],
    [55, ["Laptops", "Computers"], "laptop"],
    [56, ["Laptops", "Computers"], "laptop"],
    [57, ["Laptops", "Computers"], "laptop"],
    [58, ["Laptops", "Computers"], "laptop"],
    [59, ["Computers", "Laptops"], "laptop"],
  ];

  it.each(products)("product %i %j → %s", (_id, categories, expected) => {
    expect(kindForCategories(categories)).toBe(expected);
  });

  it("lets specific categories win regardless of order", () => {
    expect(kindForCategories(["Mouse", "Peripheral"])).toBe("mouse");
    expect(kindForCategories(["Gaming", "Components", "SSD"])).toBe("ssd");
    expect(kindForCategories(["Gaming", "Pc Desktop", "Computers"])).toBe("desktop");
    expect(kindForCategories(["Computers", "Laptops"])).toBe("laptop");
    expect(kindForCategories(["Laser Printers", "Printers"])).toBe("printer");
    expect(kindForCategories(["Components", "HDD"])).toBe("hdd");
  });

  it("falls back through the umbrella categories", () => {
    expect(kindForCategories(["Computers", "Gaming"])).toBe("gaming");
    expect(kindForCategories(["Computers", "Components"])).toBe("components");
    expect(kindForCategories(["Computers"])).toBe("computer");
    expect(kindForCategories(["Gaming"])).toBe("gaming");
    expect(kindForCategories(["Peripheral"])).toBe("peripheral");
  });

  it("is case-insensitive and tolerant of spacing", () => {
    expect(kindForCategories(["PERIPHERAL", "mouse"])).toBe("mouse");
    expect(kindForCategories(["  pc   desktop ", "COMPUTERS"])).toBe("desktop");
    expect(kindForCategories(["deskjet printers"])).toBe("printer");
    expect(kindForCategories(["ssd"])).toBe("ssd");
  });

  it("returns components for unknown or missing categories", () => {
    expect(kindForCategories([])).toBe("components");
    expect(kindForCategories(["Garden", "Kitchen"])).toBe("components");
    expect(kindForCategories(["Garden", "Tablets"])).toBe("tablet");
  });
});

describe("kindForCategory", () => {
  it.each([
    ["Computers", "computer"],
    ["Pc Desktop", "desktop"],
    ["Gaming", "gaming"],
    ["Peripheral", "peripheral"],
    ["Keyboards", "keyboard"],
    ["Mouse", "mouse"],
    ["Cameras", "camera"],
    ["SSD", "ssd"],
    ["Components", "components"],
    ["HDD", "hdd"],
    ["Printers", "printer"],
    ["Laser Printers", "printer"],
    ["Deskjet Printers", "printer"],
    ["Tablets", "tablet"],
    ["Monitors", "monitor"],
    ["Laptops", "laptop"],
    ["laptops", "laptop"],
    ["Garden", "components"],
  ] as const)("%s → %s", (name, kind) => {
    expect(kindForCategory(name)).toBe(kind);
  });
});

describe("URLs and escaping", () => {
  it("builds product and category URLs", () => {
    expect(illustrationUrl("laptop", 3)).toBe("/illustrations/laptop/3.svg");
    expect(illustrationUrl("mouse", 0, "MX Master 2S & co")).toBe(
      "/illustrations/mouse/0.svg?label=MX%20Master%202S%20%26%20co",
    );
    expect(illustrationUrl("ssd", 1, "")).toBe("/illustrations/ssd/1.svg?label=");
    expect(categoryIllustrationUrl("gaming")).toBe("/illustrations/category/gaming.svg");
  });

  it("escapes the five XML special characters", () => {
    expect(escapeXml(`& < > " '`)).toBe("&amp; &lt; &gt; &quot; &#39;");
    expect(escapeXml("plain")).toBe("plain");
  });
});

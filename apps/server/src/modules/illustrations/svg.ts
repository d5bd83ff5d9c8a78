// Offline product and category pictures: flat SVG drawings built from strings, no I/O, deterministic.

export const ILLUSTRATION_KINDS = [
  "laptop",
  "desktop",
  "monitor",
  "mouse",
  "keyboard",
  "printer",
  "camera",
  "ssd",
  "hdd",
  "tablet",
  "components",
  "gaming",
  "peripheral",
  "computer",
] as const;

export type IllustrationKind = (typeof ILLUSTRATION_KINDS)[number];

export const MAX_LABEL_LENGTH = 24;

export function isIllustrationKind(value: string): value is IllustrationKind {
  return (ILLUSTRATION_KINDS as readonly string[]).includes(value);
}

// Higher rank = more specific. "Gaming", "Components", "Peripheral" and "Computers" are umbrella categories
// that only decide the picture when nothing more specific is present.
const CATEGORY_RULES: readonly { test: RegExp; kind: IllustrationKind; rank: number }[] = [
  { test: /\blaptops?\b|\bnotebooks?\b/, kind: "laptop", rank: 10 },
  { test: /\bdesktops?\b|\bpc\b|\btowers?\b/, kind: "desktop", rank: 9 },
  { test: /\bmonitors?\b|\bdisplays?\b/, kind: "monitor", rank: 10 },
  { test: /\bmouse\b|\bmice\b/, kind: "mouse", rank: 10 },
  { test: /\bkeyboards?\b/, kind: "keyboard", rank: 10 },
  { test: /\bprinters?\b/, kind: "printer", rank: 10 },
  { test: /\bcameras?\b|\bwebcams?\b/, kind: "camera", rank: 10 },
  { test: /\bssds?\b|solid state/, kind: "ssd", rank: 10 },
  { test: /\bhdds?\b|hard (disk|drive)s?/, kind: "hdd", rank: 10 },
  { test: /\btablets?\b/, kind: "tablet", rank: 10 },
  { test: /\bgaming\b|\bgames?\b/, kind: "gaming", rank: 5 },
  { test: /\bcomponents?\b/, kind: "components", rank: 4 },
  { test: /\bperipherals?\b|\baccessor(y|ies)\b/, kind: "peripheral", rank: 4 },
  { test: /\bcomputers?\b|all[- ]in[- ]one/, kind: "computer", rank: 3 },
];

function matchCategory(name: string): { kind: IllustrationKind; rank: number } | undefined {
  const normalised = name.trim().toLowerCase().replace(/\s+/g, " ");
  let best: { kind: IllustrationKind; rank: number } | undefined;
  for (const rule of CATEGORY_RULES) {
    if (rule.test.test(normalised) && (!best || rule.rank > best.rank)) best = rule;
  }
  return best;
}

/** The most specific picture for a product, from its category names. */
export function kindForCategories(categoryNames: string[]): IllustrationKind {
  let best: { kind: IllustrationKind; rank: number } | undefined;
  for (const name of categoryNames) {
    const match = matchCategory(name);
    if (match && (!best || match.rank > best.rank)) best = match;
  }
  return best?.kind ?? "components";
}

/** The picture for a category page or tile. */
export function kindForCategory(name: string): IllustrationKind {
  return matchCategory(name)?.kind ?? "components";
}

export function illustrationUrl(kind: IllustrationKind, variant: number, label?: string): string {
  const base = `/illustrations/${kind}/${variant}.svg`;
  return label === undefined ? base : `${base}?label=${encodeURIComponent(label)}`;
}

export function categoryIllustrationUrl(kind: IllustrationKind): string {
  return `/illustrations/category/${kind}.svg`;
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** XML-escapes text; drops characters XML 1.0 cannot carry so the document always parses. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- removing these control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/[\uD800-\uDFFF]/gu, "")
      .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c)
  );
}

/** Trims and cuts to 24 characters (code points, so emoji are never split). */
export function cleanLabel(label: string): string {
  return Array.from(label.trim()).slice(0, MAX_LABEL_LENGTH).join("").trim();
}

interface Palette {
  body: string;
  shade: string;
  hi: string;
  line: string;
  cap: string;
  accent: string;
  bg: readonly [string, string];
  scr: readonly [string, string];
}

const PALETTES: readonly Palette[] = [
  // graphite + blue
  {
    body: "#3a4352",
    shade: "#272e3a",
    hi: "#566175",
    line: "#202631",
    cap: "#4a5466",
    accent: "#3b82f6",
    bg: ["#f1f5fc", "#d8e3f6"],
    scr: ["#7cb4ff", "#1e3a8a"],
  },
  // silver + orange
  {
    body: "#d7dce3",
    shade: "#a3acb8",
    hi: "#f1f3f6",
    line: "#8e98a6",
    cap: "#f4f6f8",
    accent: "#f97316",
    bg: ["#fff8f1", "#ffe2cb"],
    scr: ["#fdba74", "#9a3412"],
  },
  // midnight + teal
  {
    body: "#233150",
    shade: "#161f36",
    hi: "#3a4a6e",
    line: "#111827",
    cap: "#34446a",
    accent: "#14b8a6",
    bg: ["#eefbf8", "#c9ece5"],
    scr: ["#5eead4", "#134e4a"],
  },
  // snow + violet
  {
    body: "#f7f8fa",
    shade: "#c6ccd6",
    hi: "#ffffff",
    line: "#aab2bf",
    cap: "#ffffff",
    accent: "#8b5cf6",
    bg: ["#f6f2ff", "#ddd3fa"],
    scr: ["#c4b5fd", "#4c1d95"],
  },
  // rose gold + crimson
  {
    body: "#e9c6b9",
    shade: "#bf9384",
    hi: "#f7e3dc",
    line: "#a97b6c",
    cap: "#f8e7e1",
    accent: "#e11d48",
    bg: ["#fff3f4", "#f9d3da"],
    scr: ["#fda4af", "#881337"],
  },
  // forest + green
  {
    body: "#33413a",
    shade: "#212b26",
    hi: "#4b5c53",
    line: "#1a221e",
    cap: "#43524a",
    accent: "#22c55e",
    bg: ["#f0fbf2", "#cfeed7"],
    scr: ["#86efac", "#14532d"],
  },
];

const INK = "#141922";
const FONT = 'font-family="system-ui, sans-serif"';

interface Device {
  svg: string;
  /** Point shown in the detail close-up. */
  focus: readonly [number, number];
  /** Floor shadow: y and half width. */
  floor: readonly [number, number];
  /** Half the drawing's width around x = 400, to fit it beside the magnifier. */
  half: number;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

// Tiny element builders: `more` carries extra attributes, already prefixed with a space.
type Num = number | string;
const rect = (x: Num, y: Num, w: Num, h: Num, rx: Num, fill: string, more = "") =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${fill}"${more}/>`;
const circle = (cx: Num, cy: Num, r: Num, fill: string, more = "") =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"${more}/>`;
const shape = (d: string, fill: string, more = "") => `<path d="${d}" fill="${fill}"${more}/>`;
const line = (d: string, color: string, width: Num, more = "") =>
  `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}"${more}/>`;
const edge = (p: Palette, width = 2) => ` stroke="${p.line}" stroke-width="${width}"`;
const op = (opacity: string) => ` opacity="${opacity}"`;
const ROUND = ' stroke-linecap="round"';

/** A screen with a soft wallpaper (two waves and a sun) that respects rounded corners. */
function screen(x: number, y: number, w: number, h: number, r: number): string {
  const b = y + h;
  const wave = (y0: number, c1: number, c2: number, y1: number) =>
    `M${x} ${r1(y + h * y0)}C${r1(x + w * 0.3)} ${r1(y + h * c1)} ${r1(x + w * 0.6)} ${r1(y + h * c2)} ` +
    `${x + w} ${r1(y + h * y1)}V${b - r}Q${x + w} ${b} ${x + w - r} ${b}H${x + r}Q${x} ${b} ${x} ${b - r}Z`;
  return (
    rect(x, y, w, h, r, "url(#sc)") +
    circle(r1(x + w * 0.74), r1(y + h * 0.3), r1(h * 0.12), "#fff", op(".35")) +
    shape(wave(0.62, 0.42, 0.86, 0.5), "#fff", op(".16")) +
    shape(wave(0.8, 0.66, 0.98, 0.7), "#fff", op(".2"))
  );
}

/** One row of keys drawn as a dashed stroke: compact and evenly spaced. */
function keyRow(x0: number, x1: number, y: number, h: number, keys: number[], color: string): string {
  const gap = 4;
  const unit = (x1 - x0 - gap * (keys.length - 1)) / keys.reduce((a, b) => a + b, 0);
  const dash = keys.map((k, i) => `${r1(k * unit)} ${i < keys.length - 1 ? gap : 999}`).join(" ");
  return line(`M${r1(x0)} ${y}H${r1(x1)}`, color, h, ` stroke-dasharray="${dash}"`);
}

function laptop(p: Palette): Device {
  const top = 344;
  const bottom = 492;
  // Left edge of the keyboard deck, which narrows towards the hinge (perspective).
  const xAt = (y: number) => 222 - (92 * (y - top)) / (bottom - top) + 30;
  let keys = "";
  for (const [y, h] of [
    [358, 11],
    [377, 13],
    [397, 14],
    [419, 15],
  ] as const) {
    keys += keyRow(xAt(y), 800 - xAt(y), y, h, Array<number>(13).fill(1), p.cap);
  }
  keys += keyRow(xAt(441), 800 - xAt(441), 441, 16, [1, 1, 1.2, 6.4, 1.2, 1, 1, 1], p.cap);
  const deck = `M222 ${top}H578L670 ${bottom}Q672 500 662 500H138Q128 500 130 ${bottom}Z`;
  return {
    svg:
      rect(214, 92, 372, 250, 16, INK) +
      screen(228, 106, 344, 218, 6) +
      circle(400, 99, 3, "#3b4252") +
      shape("M214 338H586V346H214Z", p.shade) +
      shape(deck, p.body, `${edge(p)} stroke-linejoin="round"`) +
      keys +
      shape("M348 458H452L458 486H342Z", p.shade, ` opacity=".55"`) +
      shape("M128 500H672V506Q672 514 662 514H138Q128 514 128 506Z", p.shade) +
      circle(640, 484, 3, p.accent),
    focus: [536, 346],
    floor: [516, 290],
    half: 272,
  };
}

function monitor(p: Palette): Device {
  return {
    svg:
      shape("M378 390H422L434 474H366Z", p.shade) +
      rect(296, 468, 208, 18, 9, p.body, edge(p)) +
      rect(150, 92, 500, 312, 14, INK) +
      screen(160, 102, 480, 270, 4) +
      shape("M150 376H650V390Q650 404 636 404H164Q150 404 150 390Z", p.body) +
      rect(388, 386, 24, 6, 3, p.accent) +
      [568, 584, 600].map((x) => circle(x, 390, 4, p.shade)).join("") +
      circle(622, 390, 4, p.accent),
    focus: [574, 380],
    floor: [488, 170],
    half: 250,
  };
}

function mouse(p: Palette): Device {
  const body =
    "M400 104C500 104 532 200 532 300C532 420 478 496 400 496" +
    "C322 496 268 420 268 300C268 200 300 104 400 104Z";
  return {
    svg:
      shape(body, p.body, edge(p, 3)) +
      shape("M290 170C300 140 330 118 360 112C320 140 300 190 296 250Z", "#fff", op(".22")) +
      line("M400 106V262M271 258Q400 292 529 258", p.line, 3) +
      rect(386, 146, 28, 64, 14, INK) +
      line("M392 162H408M392 172H408M392 182H408M392 192H408", p.accent, 4, ROUND) +
      line("M522 330C518 410 480 470 420 488", p.accent, 8, ROUND) +
      circle(400, 410, 12, p.shade, op(".7")),
    focus: [400, 200],
    floor: [498, 130],
    half: 132,
  };
}

/** Keys come from a pattern tile (a rounded cap with a darker lip) repeated across the plate. */
function keyboardBody(p: Palette, x: number, y: number, cols: number, rows: number, k: number): string {
  const w = cols * k;
  const h = rows * k;
  const rx = r1(k * 0.16);
  const cap = (cx: number, cy: number, width: number, fill: string) =>
    rect(cx + 3, cy + 3, width - 6, k - 8, rx, fill);
  const spaceY = y + (rows - 1) * k;
  return (
    `<pattern id="ky" x="${x}" y="${y}" width="${k}" height="${k}" patternUnits="userSpaceOnUse">` +
    rect(3, 5, k - 6, k - 8, rx, p.line, op(".5")) +
    rect(3, 3, k - 6, k - 8, rx, p.cap) +
    `</pattern>` +
    rect(x - 24, y - 24, w + 48, h + 48, 22, p.body, edge(p)) +
    rect(x - 6, y - 6, w + 12, h + 12, 10, p.shade) +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#ky)"/>` +
    rect(x + 4 * k, spaceY, 6 * k, k, 0, p.shade) +
    cap(x + 4 * k, spaceY, 6 * k, p.cap) +
    cap(x, y, k, p.accent) +
    cap(x + (cols - 1) * k, y + k, k, p.accent)
  );
}

function keyboard(p: Palette): Device {
  return {
    svg: keyboardBody(p, 134, 212, 14, 5, 38) + circle(622, 200, 3, p.accent) + circle(636, 200, 3, p.accent),
    focus: [200, 250],
    floor: [430, 300],
    half: 290,
  };
}

function printer(p: Palette): Device {
  const paper = ' stroke="#dfe3ea" stroke-width="2"';
  return {
    svg:
      shape("M262 214L286 104H514L538 214Z", p.shade) +
      shape("M300 214L318 118H482L500 214Z", "#fff", paper) +
      line("M338 146H440M334 166H462M330 186H420", "#cbd2dc", 6, ROUND) +
      rect(176, 200, 448, 216, 28, p.body, edge(p)) +
      shape("M176 256V228Q176 200 204 200H596Q624 200 624 228V256Z", p.hi, op(".6")) +
      rect(470, 226, 118, 40, 10, INK) +
      rect(480, 234, 50, 24, 4, "url(#sc)") +
      circle(550, 246, 7, p.accent) +
      circle(572, 246, 7, "#4b5563") +
      rect(236, 318, 328, 16, 8, p.line) +
      rect(262, 326, 276, 124, 4, "#fff", paper) +
      rect(284, 350, 100, 72, 6, "url(#sc)") +
      line("M404 358H512M404 376H500M404 394H516M404 412H470", "#cbd2dc", 7, ROUND) +
      rect(232, 440, 336, 16, 8, p.shade),
    focus: [400, 390],
    floor: [458, 250],
    half: 224,
  };
}

function camera(p: Palette): Device {
  return {
    svg:
      line("M400 350L320 480M400 350L480 480M400 350V492", p.shade, 10, ROUND) +
      rect(376, 310, 48, 46, 10, p.shade) +
      rect(226, 164, 348, 160, 80, p.body, edge(p)) +
      rect(244, 182, 312, 124, 62, INK) +
      circle(400, 244, 66, p.shade, ` stroke="${p.accent}" stroke-width="4"`) +
      circle(400, 244, 50, "#0b0f17") +
      circle(400, 244, 36, "url(#ln)") +
      circle(400, 244, 14, "#05070c") +
      circle(384, 228, 9, "#fff", op(".55")) +
      circle(414, 258, 4, "#fff", op(".3")) +
      line("M290 236V252M302 236V252M498 236V252M510 236V252", "#3b4252", 4, ROUND) +
      circle(490, 206, 5, p.accent),
    focus: [400, 244],
    floor: [494, 110],
    half: 174,
  };
}

function ssd(p: Palette): Device {
  const text = (x: number, y: number, size: number, more: string, content: string) =>
    `<text x="${x}" y="${y}" ${FONT} font-size="${size}" fill="#fff"${more}>${content}</text>`;
  let barcode = "";
  for (const x of [484, 494, 500, 512, 518, 530, 538, 550]) barcode += `M${x} 336V376`;
  const screws = [150, 424].map((y) => circle(198, y, 6, p.shade) + circle(602, y, 6, p.shade)).join("");
  return {
    svg:
      rect(246, 436, 150, 22, 4, p.shade) +
      line("M256 447H386", "#d4a93a", 10, ' stroke-dasharray="5 4"') +
      rect(180, 132, 440, 310, 18, p.body, edge(p)) +
      rect(204, 156, 392, 262, 10, "url(#ac)") +
      text(234, 256, 76, ' font-weight="800"', "SSD") +
      text(236, 292, 18, ' font-weight="600" opacity=".85" letter-spacing="3"', "SOLID STATE DRIVE") +
      line("M236 340H400M236 362H360", "#fff", 8, `${ROUND}${op(".55")}`) +
      rect(470, 320, 96, 72, 8, "#fff", op(".9")) +
      line(barcode, INK, 3) +
      screws,
    focus: [330, 420],
    floor: [462, 250],
    half: 220,
  };
}

function hdd(p: Palette): Device {
  const ring = (r: number, opacity: string) =>
    circle(400, 256, r, "none", ` stroke="#fff" stroke-width="2"${op(opacity)}`);
  const screws = [110, 490].map((y) => circle(250, y, 6, p.shade) + circle(550, y, 6, p.shade)).join("");
  return {
    svg:
      rect(232, 92, 336, 416, 18, p.body, edge(p)) +
      rect(252, 112, 296, 376, 12, p.shade) +
      circle(400, 256, 128, "url(#pl)") +
      ring(100, ".35") +
      ring(72, ".3") +
      circle(400, 256, 30, p.hi, edge(p)) +
      circle(400, 256, 10, p.accent) +
      shape("M470 460Q520 470 532 430L532 400Q500 380 470 400Z", INK) +
      shape("M484 418L430 300L446 292L510 410Z", p.hi, `${edge(p)} stroke-linejoin="round"`) +
      rect(428, 284, 18, 22, 3, p.accent, ' transform="rotate(-25 437 295)"') +
      circle(497, 414, 22, p.body, edge(p)) +
      circle(497, 414, 7, p.shade) +
      screws,
    focus: [450, 330],
    floor: [510, 190],
    half: 168,
  };
}

function tablet(p: Palette): Device {
  const tints = ["#fff", p.accent, "#fff", "#fde68a", "#fff", "#a7f3d0", p.accent, "#fff"];
  const icons = tints.map((t, i) =>
    rect(222 + (i % 4) * 62, 188 + Math.floor(i / 4) * 62, 42, 42, 11, t, op(".9")),
  );
  return {
    svg:
      rect(158, 128, 484, 334, 32, p.body, edge(p)) +
      rect(170, 140, 460, 310, 22, INK) +
      screen(186, 156, 428, 278, 10) +
      icons.join("") +
      rect(470, 188, 110, 104, 14, "#fff", op(".3")) +
      line("M488 214H548M488 234H530", "#fff", 8, ROUND) +
      rect(290, 394, 220, 28, 14, "#fff", op(".3")) +
      circle(400, 148, 3, "#3b4252") +
      shape("M236 486H540L566 492L540 498H236Q228 498 228 492Q228 486 236 486Z", p.accent),
    focus: [440, 226],
    floor: [500, 270],
    half: 242,
  };
}

function desktop(p: Palette): Device {
  let fans = "";
  for (const y of [190, 286, 382]) {
    fans +=
      circle(575, y, 40, "#0b0f17", ` stroke="${p.accent}" stroke-width="5"`) +
      circle(575, y, 26, "none", ' stroke="#2a3140" stroke-width="10" stroke-dasharray="14 6"') +
      circle(575, y, 9, p.hi);
  }
  return {
    svg:
      shape("M270 360H300L308 430H262Z", p.shade) +
      rect(218, 426, 134, 14, 7, p.body, edge(p)) +
      rect(112, 150, 346, 222, 12, INK) +
      screen(122, 160, 326, 188, 4) +
      rect(112, 348, 346, 24, 0, p.body) +
      rect(478, 104, 194, 356, 16, p.body, edge(p)) +
      rect(496, 130, 158, 306, 10, p.shade) +
      fans +
      circle(520, 117, 5, p.accent) +
      rect(540, 114, 40, 6, 3, p.shade) +
      rect(496, 460, 30, 10, 3, p.line) +
      rect(624, 460, 30, 10, 3, p.line),
    focus: [575, 238],
    floor: [470, 300],
    half: 288,
  };
}

function components(p: Palette): Device {
  const traces =
    "M320 250H250V170M320 290H214M320 330H260V440M360 380V450H300" +
    "M440 380V440H520M480 300H560V180M400 220V160H470";
  const pads = [
    [250, 170],
    [214, 290],
    [260, 440],
    [300, 450],
    [520, 440],
    [560, 180],
    [470, 160],
  ];
  const cap = (x: number) => circle(x, 460, 14, p.hi, edge(p));
  return {
    svg:
      rect(170, 110, 460, 380, 20, p.body, edge(p)) +
      line(traces, p.accent, 5, ` stroke-linejoin="round"${op(".75")}`) +
      pads.map(([x = 0, y = 0]) => circle(x, y, 8, p.accent)).join("") +
      line("M332 212H468M332 388H468M312 232V368M488 232V368", "#d4a93a", 12, ' stroke-dasharray="6 8"') +
      rect(320, 220, 160, 160, 14, INK) +
      rect(344, 244, 112, 112, 10, "url(#pl)") +
      `<text x="400" y="308" ${FONT} font-size="26" font-weight="800" fill="${INK}" opacity=".55" ` +
      `text-anchor="middle">CPU</text>` +
      rect(520, 230, 16, 200, 4, p.shade) +
      rect(548, 230, 16, 200, 4, p.shade) +
      rect(200, 138, 70, 16, 4, p.shade) +
      cap(590) +
      cap(560) +
      circle(196, 136, 8, p.shade) +
      circle(604, 136, 8, p.shade) +
      circle(196, 464, 8, p.shade),
    focus: [400, 300],
    floor: [492, 250],
    half: 230,
  };
}

function gaming(p: Palette): Device {
  const body =
    "M262 194H538C606 194 646 232 662 300L688 410C698 458 660 490 620 472C590 458 570 424 540 404H260" +
    "C230 424 210 458 180 472C140 490 102 458 112 410L138 300C154 232 194 194 262 194Z";
  const stick = (x: number) => circle(x, 360, 34, p.shade) + circle(x, 360, 22, INK);
  return {
    svg:
      rect(230, 170, 110, 44, 18, p.shade) +
      rect(460, 170, 110, 44, 18, p.shade) +
      shape(body, p.body, edge(p, 3)) +
      shape("M248 254H272V276H294V300H272V322H248V300H226V276H248Z", INK) +
      circle(552, 250, 15, "#22c55e") +
      circle(584, 282, 15, "#ef4444") +
      circle(520, 282, 15, "#3b82f6") +
      circle(552, 314, 15, "#f59e0b") +
      stick(336) +
      stick(464) +
      rect(372, 230, 56, 10, 5, p.accent) +
      rect(356, 276, 28, 12, 6, p.shade) +
      rect(416, 276, 28, 12, 6, p.shade),
    focus: [552, 282],
    floor: [486, 280],
    half: 290,
  };
}

function peripheral(p: Palette): Device {
  // The demo's "Peripheral"-only products are keyboard + mouse combos.
  const mouseBody =
    "M633 222C675 222 688 266 688 302C688 360 666 398 633 398" +
    "C600 398 578 360 578 302C578 266 591 222 633 222Z";
  return {
    svg:
      keyboardBody(p, 136, 225, 13, 5, 30) +
      shape(mouseBody, p.body, edge(p, 3)) +
      line("M633 224V282M579 280Q633 296 687 280", p.line, 3) +
      rect(626, 238, 14, 30, 7, p.accent) +
      shape("M586 250C592 236 602 228 614 226C600 240 592 256 590 276Z", "#fff", op(".22")),
    focus: [633, 300],
    floor: [406, 300],
    half: 290,
  };
}

function computer(p: Palette): Device {
  return {
    svg:
      shape("M350 410L336 476H464L450 410Z", p.shade) +
      rect(290, 470, 220, 16, 8, p.body, edge(p)) +
      rect(128, 82, 544, 344, 18, p.body, edge(p)) +
      rect(142, 96, 516, 282, 6, INK) +
      screen(148, 102, 504, 270, 3) +
      circle(400, 402, 8, p.accent),
    focus: [400, 408],
    floor: [488, 190],
    half: 272,
  };
}

const DEVICES: Record<IllustrationKind, (p: Palette) => Device> = {
  laptop,
  desktop,
  monitor,
  mouse,
  keyboard,
  printer,
  camera,
  ssd,
  hdd,
  tablet,
  components,
  gaming,
  peripheral,
  computer,
};

const KIND_NAMES: Record<IllustrationKind, string> = {
  laptop: "Laptop",
  desktop: "Desktop computer",
  monitor: "Monitor",
  mouse: "Computer mouse",
  keyboard: "Keyboard",
  printer: "Printer",
  camera: "Webcam",
  ssd: "Solid state drive",
  hdd: "Hard disk drive",
  tablet: "Tablet",
  components: "Computer components",
  gaming: "Gaming controller",
  peripheral: "Keyboard and mouse combo",
  computer: "All-in-one computer",
};

const stops = (...colours: string[]) =>
  colours.map((c, i) => `<stop offset="${r1(i / (colours.length - 1))}" stop-color="${c}"/>`).join("");
const diagonal = (id: string, from: string, to: string) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">${stops(from, to)}</linearGradient>`;

function defs(p: Palette): string {
  return (
    diagonal("bg", p.bg[0], p.bg[1]) +
    diagonal("sc", p.scr[0], p.scr[1]) +
    diagonal("ac", p.accent, p.scr[1]) +
    `<radialGradient id="ln" cx=".35" cy=".35">${stops(p.scr[0], "#0b0f17")}</radialGradient>` +
    `<radialGradient id="pl" cx=".4" cy=".35">${stops("#f8fafc", "#cbd5e1", "#94a3b8")}</radialGradient>` +
    `<radialGradient id="sh"><stop offset="0" stop-color="#0f172a" stop-opacity=".28"/>` +
    `<stop offset="1" stop-color="#0f172a" stop-opacity="0"/></radialGradient>`
  );
}

const floorShadow = (cx: Num, cy: Num, rx: Num, ry: Num) =>
  `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="url(#sh)"/>`;

function normaliseVariant(variant: number): number {
  return Number.isFinite(variant) ? Math.abs(Math.trunc(variant)) : 0;
}

/** Background decoration, picked by variant / 18 so products sharing a kind and palette still differ. */
function decoration(style: number, p: Palette): string {
  if (style === 1)
    return rect(180, 70, 440, 440, 96, "#fff", ` opacity=".45" transform="rotate(12 400 290)"`);
  if (style === 2) {
    return (
      circle(400, 290, 250, "none", ` stroke="#fff" stroke-width="40"${op(".4")}`) +
      circle(690, 90, 36, p.accent, op(".12"))
    );
  }
  return circle(400, 290, 240, "#fff", op(".5")) + circle(120, 110, 44, p.accent, op(".1"));
}

function tag(label: string, p: Palette): string {
  if (!label) return "";
  // No text metrics offline: estimate the width generously from the character count.
  const width = Math.round(48 + Array.from(label).length * 10.4);
  const pill = rect(0, 0, width, 44, 22, "#fff", op(".92")) + circle(22, 22, 6, p.accent);
  const text = `<text x="36" y="28.5" ${FONT} font-size="18" font-weight="600" fill="#1f2937">`;
  return `<g transform="translate(32 526)">${pill}${text}${escapeXml(label)}</text></g>`;
}

const LENS = { x: 590, y: 276, r: 150, zoom: 2.2 };

function scene(comp: number, d: Device, p: Palette): string {
  const [fx, fy] = d.focus;
  const [floorY, floorW] = d.floor;
  if (comp === 1) {
    // Three-quarter view: squash horizontally and shear so the device looks turned towards the viewer.
    return (
      floorShadow(400, floorY + 8, r1(floorW * 0.9), 22) +
      `<use href="#d" transform="matrix(.9 -.08 0 1 40 32)"/>`
    );
  }
  if (comp === 2) {
    // Detail: the whole device smaller on the left, a magnified close-up of one feature on the right.
    const s = Math.round(Math.min(0.72, 184 / d.half) * 100) / 100;
    const [cx, cy] = [236, 300];
    const { x, y, r, zoom } = LENS;
    const marker = ` stroke="${p.accent}" stroke-width="3" stroke-dasharray="7 5"`;
    return (
      floorShadow(cx, r1(cy + s * (floorY - 300)), r1(floorW * s), 14) +
      `<use href="#d" transform="translate(${cx} ${cy}) scale(${s}) translate(-400 -300)"/>` +
      circle(r1(cx + s * (fx - 400)), r1(cy + s * (fy - 300)), r1((r / zoom) * s), "none", marker) +
      circle(x + 4, y + 8, r + 10, "#0f172a", op(".08")) +
      circle(x, y, r, p.bg[0]) +
      `<g clip-path="url(#z)"><use href="#d" transform="translate(${x} ${y}) scale(${zoom}) ` +
      `translate(${-fx} ${-fy})"/></g>` +
      circle(x, y, r, "none", ' stroke="#fff" stroke-width="10"') +
      circle(x, y, r + 6, "none", ` stroke="${p.accent}" stroke-width="3"`)
    );
  }
  return floorShadow(400, floorY, floorW, 22) + `<use href="#d"/>`;
}

const svgOpen = (w: number, h: number, title: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img">` +
  `<title>${escapeXml(title)}</title>`;

/**
 * A complete 800x600 product picture. variant % 3 picks the composition, (variant / 3) % 6 the palette and
 * (variant / 18) % 3 the background, so one product's pictures share a palette and differ in view.
 */
export function productIllustration(kind: IllustrationKind, variant: number, label: string): string {
  const v = normaliseVariant(variant);
  const p = PALETTES[Math.floor(v / 3) % PALETTES.length]!;
  const d = DEVICES[kind](p);
  const text = cleanLabel(label);
  const lens = `<clipPath id="z">${circle(LENS.x, LENS.y, LENS.r, "#000")}</clipPath>`;
  return (
    svgOpen(800, 600, text || KIND_NAMES[kind]) +
    `<defs>${defs(p)}${lens}<g id="d">${d.svg}</g></defs>` +
    rect(0, 0, 800, 600, 0, "url(#bg)") +
    decoration(Math.floor(v / 18) % 3, p) +
    scene(v % 3, d, p) +
    tag(text, p) +
    `</svg>`
  );
}

/** A simpler 400x300 picture for a category tile: one device, one palette per kind. */
export function categoryIllustration(kind: IllustrationKind): string {
  const p = PALETTES[ILLUSTRATION_KINDS.indexOf(kind) % PALETTES.length]!;
  const d = DEVICES[kind](p);
  const [floorY, floorW] = d.floor;
  return (
    svgOpen(400, 300, KIND_NAMES[kind]) +
    `<defs>${defs(p)}</defs>` +
    rect(0, 0, 400, 300, 0, "url(#bg)") +
    circle(200, 150, 118, "#fff", op(".5")) +
    `<g transform="translate(200 152) scale(.44) translate(-400 -300)">` +
    `${floorShadow(400, floorY, floorW, 22)}${d.svg}</g></svg>`
  );
}

/** The 800x600 picture of a product that was given none (docs/product-rules.md §9): a neutral frame with a photo sign. */
export function placeholderIllustration(): string {
  const sign =
    rect(290, 200, 220, 170, 20, "none", ' stroke="#94a3b8" stroke-width="12"') +
    circle(350, 252, 18, "#94a3b8") +
    shape("M302 358L372 286L416 330L448 298L498 358Z", "#94a3b8");
  return (
    svgOpen(800, 600, "No image") +
    rect(0, 0, 800, 600, 0, "#f1f5f9") +
    circle(400, 290, 200, "#fff", op(".7")) +
    sign +
    `<text x="400" y="440" ${FONT} font-size="26" font-weight="600" fill="#64748b" text-anchor="middle">` +
    `No image</text></svg>`
  );
}

/** An avatar's letters: one or two of any alphabet (a first name's and a last name's first letter). */
export const AVATAR_INITIALS = /^\p{L}{1,2}$/u;

const initialOf = (name: string): string => {
  const first = Array.from(name.trim())[0] ?? "";
  // Upper case, one letter: "ß" would become "SS".
  return /^\p{L}$/u.test(first) ? Array.from(first.toLocaleUpperCase("en-US"))[0]! : "";
};

/**
 * The picture of an account that has none: its initials on the store's accent colour, as the web app draws
 * it, or a silhouette when its names start with no letter. A URL the store serves, never an empty string.
 */
export function avatarUrl(user: { firstName: string; lastName: string }): string {
  const initials = initialOf(user.firstName) + initialOf(user.lastName);
  return `/illustrations/avatar/${initials ? encodeURIComponent(initials) : "default"}.svg`;
}

/** A 96x96 round avatar: `initials` (AVATAR_INITIALS), or a silhouette when empty. */
export function avatarIllustration(initials: string): string {
  const face = initials
    ? `<text x="48" y="48" dy=".35em" ${FONT} font-size="38" font-weight="600" fill="#fff" text-anchor="middle">` +
      `${escapeXml(initials)}</text>`
    : circle(48, 38, 16, "#fff", op(".85")) +
      shape("M20 80C24 62 35 56 48 56S72 62 76 80Z", "#fff", op(".85"));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" aria-hidden="true">` +
    circle(48, 48, 48, "#4f46e5") +
    face +
    `</svg>`
  );
}

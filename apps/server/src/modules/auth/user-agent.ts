/**
 * The browser and system named by a User-Agent, for "Your sessions" and the new-browser notice. Names only,
 * never versions: a browser's monthly update must not read as a new browser. Order matters, because most
 * browsers also claim to be the ones they descend from (Edge says Chrome and Safari, Chrome says Safari).
 */
export interface UserAgentInfo {
  /** "Firefox", "Chrome", …; null when none of the common ones is named. */
  browser: string | null;
  /** "Windows", "macOS", "iOS", …; null when unknown. */
  system: string | null;
}

const BROWSERS: [name: string, pattern: RegExp][] = [
  ["Edge", /\b(?:Edg|EdgA|EdgiOS|Edge)\//],
  ["Opera", /\b(?:OPR|OPiOS|Opera)\b/],
  ["Samsung Internet", /\bSamsungBrowser\//],
  ["Yandex Browser", /\bYaBrowser\//],
  ["Vivaldi", /\bVivaldi\//],
  ["Firefox", /\b(?:Firefox|FxiOS)\//],
  ["Chrome", /\b(?:Chrome|HeadlessChrome|CriOS|Chromium)\//],
  ["Safari", /\bVersion\/[\d.]+.*\bSafari\//],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  // Before Linux and macOS: Android and ChromeOS say Linux, iPhones and iPads say "like Mac OS X".
  ["Android", /\bAndroid\b/],
  ["iOS", /\b(?:iPhone|iPad|iPod)\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["Windows", /\bWindows\b/],
  ["macOS", /\bMac OS X\b|\bMacintosh\b/],
  ["Linux", /\bLinux\b/],
];

const first = (list: [string, RegExp][], userAgent: string) =>
  list.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? null;

export function parseUserAgent(userAgent: string): UserAgentInfo {
  return { browser: first(BROWSERS, userAgent), system: first(SYSTEMS, userAgent) };
}

/**
 * How a notice names the browser, in words that read the same in English and Spanish: "Firefox, Windows".
 * What none of the patterns knows is named by the start of its own User-Agent ("curl/8.5.0").
 */
export function userAgentLabel(userAgent: string): string {
  const { browser, system } = parseUserAgent(userAgent);
  const named = [browser, system].filter((part) => part !== null).join(", ");
  return named || userAgent.trim().slice(0, 60);
}

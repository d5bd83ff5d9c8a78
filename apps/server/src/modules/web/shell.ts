import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Shell {
  html: string;
  built: boolean;
  /** CSP sources for the shell's inline scripts: only these run, never an injected one. */
  scriptHashes: string[];
}

const MISSING_BUILD =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Voltio</title><!--head--></head>` +
  `<body><p>The web app is not built: run <code>npm run build</code>.</p></body></html>`;

export function loadShell(webDist: string): Shell {
  const file = join(webDist, "index.html");
  const built = existsSync(file);
  const html = built ? readFileSync(file, "utf8") : MISSING_BUILD;
  const scriptHashes = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash("sha256")
        .update(body ?? "")
        .digest("base64")}'`,
  );
  return { html, built, scriptHashes };
}

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const file = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));
const HEADER =
  "# Benchmarks\n\n" +
  "Each section is written by its `npm run bench:*` script up to its end-of-generated marker; the few lines under\n" +
  "it, kept by hand, say what the numbers mean today. Sections without a marker were measured by hand. How the\n" +
  "numbers got there (earlier runs, what was tried): [benchmark-notes.md](benchmark-notes.md).\n";

/**
 * Replaces the generated part of one "## title" section of docs/benchmarks.md (up to its
 * "<!-- end of generated -->" marker), keeping the other sections and the hand-written notes.
 */
export function replaceSection(title: string, generated: string): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : HEADER;
  const heading = `## ${title}\n`;
  const marker = "<!-- end of generated -->";
  const block = `${heading}\n${generated}\n${marker}\n`;
  const start = text.indexOf(heading);
  if (start === -1) {
    writeFileSync(file, `${text.trimEnd()}\n\n${block}`);
    return;
  }
  const end = text.indexOf(marker, start);
  const after =
    end === -1
      ? text.slice(start + heading.length).replace(/^[\s\S]*?(?=\n## |$)/, "")
      : text.slice(end + marker.length + 1);
  writeFileSync(file, text.slice(0, start) + block + after);
}

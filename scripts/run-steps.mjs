// A small step runner: starts every step whose dependencies are done, prefixes each output line with the
// step's name, times the steps, and exits with the first failing step's code. No dependency of its own, so
// it runs on a fresh clone before anything else is built.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

/**
 * @typedef {object} Step
 * @property {string} name
 * @property {string} command run by the shell, with node_modules/.bin on the PATH (as npm scripts are)
 * @property {string[]} [after] steps that must have finished (passed or not) before this one starts
 * @property {string[]} [requires] steps that must have passed; if one failed, this one fails unrun
 * @property {Record<string, string>} [env]
 * @property {{ kind: "vitest" | "playwright", file: string }} [report] the JSON report the step writes
 */

const colours = [36, 35, 33, 32, 34, 96, 95, 93];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs the steps and writes what happened to `record` (read by test-summary.mjs).
 * @param {Step[]} steps
 * @param {{ record: string }} options
 * @returns {Promise<{ code: number, results: Array<Step & { code: number | null, ms: number, skipped?: string }> }>}
 */
export async function runSteps(steps, { record }) {
  const width = Math.max(...steps.map((step) => step.name.length));
  const colour = process.stdout.isTTY && !process.env.NO_COLOR;
  const results = new Map();
  const started = new Set();
  const startedAt = Date.now();
  const children = new Set();

  const stop = (signal) => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));

  const prefix = (step) => {
    const label = `${step.name.padEnd(width)} │ `;
    const index = steps.indexOf(step) % colours.length;
    return colour ? `\x1b[${colours[index]}m${label}\x1b[0m` : label;
  };

  const pipe = (stream, target, step) => {
    let pending = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      const lines = (pending + chunk).split(/\r?\n/);
      pending = lines.pop() ?? "";
      for (const line of lines) target.write(prefix(step) + line + "\n");
    });
    stream.on("end", () => {
      if (pending) target.write(prefix(step) + pending + "\n");
    });
  };

  const run = (step) =>
    new Promise((resolve) => {
      const begin = Date.now();
      process.stdout.write(`${prefix(step)}▶ ${step.command}\n`);
      const child = spawn(step.command, {
        shell: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          PATH: `${process.cwd()}/node_modules/.bin:${process.env.PATH}`,
          // Colours survive the pipe when the runner itself writes to a terminal.
          ...(colour ? { FORCE_COLOR: "1" } : {}),
          ...step.env,
        },
      });
      children.add(child);
      pipe(child.stdout, process.stdout, step);
      pipe(child.stderr, process.stderr, step);
      child.on("close", (code, signal) => {
        children.delete(child);
        const result = { ...step, code: code ?? (signal ? 1 : 0), ms: Date.now() - begin, at: Date.now() };
        process.stdout.write(
          `${prefix(step)}${result.code === 0 ? "✓ passed" : `✗ failed (exit ${result.code})`} in ${seconds(result.ms)}\n`,
        );
        resolve(result);
      });
    });

  const finished = (name) => results.has(name);
  const passed = (name) => results.get(name)?.code === 0;

  await new Promise((resolveAll) => {
    const schedule = () => {
      for (const step of steps) {
        if (started.has(step.name)) continue;
        const waitFor = [...(step.after ?? []), ...(step.requires ?? [])];
        if (!waitFor.every(finished)) continue;
        started.add(step.name);
        const failedRequirement = (step.requires ?? []).find((name) => !passed(name));
        if (failedRequirement) {
          const skipped = `not run: ${failedRequirement} failed`;
          process.stdout.write(`${prefix(step)}✗ ${skipped}\n`);
          results.set(step.name, { ...step, code: 1, ms: 0, at: Date.now(), skipped });
          continue;
        }
        void run(step).then((result) => {
          results.set(step.name, result);
          schedule();
        });
      }
      if (results.size === steps.length) resolveAll();
    };
    schedule();
  });

  const ordered = steps.map((step) => results.get(step.name));
  const firstFailure = ordered.filter((result) => result.code !== 0).sort((a, b) => a.at - b.at)[0];
  mkdirSync(record.replace(/[^/]+$/, "") || ".", { recursive: true });
  writeFileSync(
    record,
    JSON.stringify(
      {
        ms: Date.now() - startedAt,
        steps: ordered.map(({ name, command, code, ms, skipped, report }) => ({
          name,
          command,
          code,
          ms,
          skipped,
          report,
        })),
      },
      null,
      2,
    ),
  );
  return { code: firstFailure?.code ?? 0, results: ordered, ms: Date.now() - startedAt };
}

import { describe, expect, it } from "vitest";
import { changesOf, shown } from "./changes";

describe("changesOf: the fields an audited change touched", () => {
  it("lists only the fields whose value differs, nested values compared whole", () => {
    expect(
      changesOf({
        before: { rol: "user", name: "Sam", tags: [1, 2] },
        after: { rol: "admin", name: "Sam", tags: [1, 3] },
      }),
    ).toEqual([
      { field: "rol", before: "user", after: "admin" },
      { field: "tags", before: [1, 2], after: [1, 3] },
    ]);
  });

  it("reads a created record (no before) and a deleted one (no after)", () => {
    expect(changesOf({ before: null, after: { title: "Hi" } })).toEqual([
      { field: "title", before: undefined, after: "Hi" },
    ]);
    expect(changesOf({ before: { title: "Hi" }, after: null })).toEqual([
      { field: "title", before: "Hi", after: undefined },
    ]);
  });

  it("gives nothing to tabulate for details of another shape", () => {
    expect(changesOf({ count: 3 })).toBeNull();
    expect(changesOf({ before: "a", after: "b" })).toBeNull();
    expect(changesOf(null)).toBeNull();
    expect(changesOf([1])).toBeNull();
  });

  it("says when nothing changed", () => {
    expect(changesOf({ before: { a: 1 }, after: { a: 1 } })).toEqual([]);
  });
});

describe("shown", () => {
  it("writes strings as they are, other values as JSON, and nothing for empty ones", () => {
    expect(shown("https://x.test")).toBe("https://x.test");
    expect(shown(3)).toBe("3");
    expect(shown({ a: true })).toBe('{"a":true}');
    expect(shown("")).toBeNull();
    expect(shown(null)).toBeNull();
    expect(shown(undefined)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { MAX_DIFF_EDITS } from "@/lib/templates/line-diff";
import { diffVersionFiles, foldUnchanged } from "@/lib/templates/version-diff";

// The versions panel's diff: every file of two versions by path, and long runs of unchanged lines folded.

describe("the diff of two versions' files", () => {
  it("marks a file only in the newer version as added, only in the older as removed, and diffs the others line by line", () => {
    expect(
      diffVersionFiles(
        { "email.tsx": "a\nb", "old.tsx": "x", "same.tsx": "s" },
        { "email.tsx": "a\nB", "new.tsx": "y\nz", "same.tsx": "s" },
      ),
    ).toEqual([
      {
        path: "email.tsx",
        change: "changed",
        lines: [
          { kind: "same", text: "a" },
          { kind: "removed", text: "b" },
          { kind: "added", text: "B" },
        ],
      },
      {
        path: "new.tsx",
        change: "added",
        lines: [
          { kind: "added", text: "y" },
          { kind: "added", text: "z" },
        ],
      },
      { path: "old.tsx", change: "removed", lines: [{ kind: "removed", text: "x" }] },
      { path: "same.tsx", change: "unchanged", lines: [] },
    ]);
  });

  it(`answers no lines (too large to show) past ${MAX_DIFF_EDITS} lines changed, in a changed file as in an added one`, () => {
    const many = (prefix: string) => Array.from({ length: MAX_DIFF_EDITS }, (_, i) => `${prefix}${i}`).join("\n");
    expect(diffVersionFiles({ "a.tsx": many("x") }, { "a.tsx": many("y"), "b.tsx": `${many("z")}\nlast` })).toEqual([
      { path: "a.tsx", change: "changed", lines: null },
      { path: "b.tsx", change: "added", lines: null },
    ]);
  });
});

describe("folding unchanged lines", () => {
  const same = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => ({ kind: "same" as const, text: `s${from + i}` }));
  const added = { kind: "added" as const, text: "new" };

  it("keeps three unchanged lines on each side of a change and folds the rest into their count", () => {
    expect(foldUnchanged([...same(10), added, ...same(10, 10), added, ...same(5, 20)])).toEqual([
      { kind: "folded", count: 7 },
      ...same(3, 7),
      added,
      ...same(3, 10),
      { kind: "folded", count: 4 },
      ...same(3, 17),
      added,
      ...same(3, 20),
      { kind: "folded", count: 2 },
    ]);
  });

  it("does not fold a run of unchanged lines it would only shorten by one", () => {
    const lines = [added, ...same(7), added];
    expect(foldUnchanged(lines)).toEqual(lines);
  });
});

import { describe, expect, it } from "vitest";
import { diffLines, type DiffLine } from "@/lib/templates/line-diff";

const same = (text: string): DiffLine => ({ kind: "same", text });
const added = (text: string): DiffLine => ({ kind: "added", text });
const removed = (text: string): DiffLine => ({ kind: "removed", text });

/** The older text again from a diff's same and removed lines, the newer from its same and added ones. */
const sides = (diff: DiffLine[]) => ({
  before: diff
    .filter((line) => line.kind !== "added")
    .map((line) => line.text)
    .join("\n"),
  after: diff
    .filter((line) => line.kind !== "removed")
    .map((line) => line.text)
    .join("\n"),
});

describe("a line diff between two versions' files", () => {
  it("marks the lines changed between unchanged ones", () => {
    expect(diffLines("a\nb\nc\nd", "a\nB\nc\nd\ne")).toEqual([
      same("a"),
      removed("b"),
      added("B"),
      same("c"),
      same("d"),
      added("e"),
    ]);
  });

  it("answers identical texts as unchanged lines, and an empty text against lines as all added", () => {
    expect(diffLines("x\ny", "x\ny")).toEqual([same("x"), same("y")]);
    expect(diffLines("", "one\ntwo")).toEqual([removed(""), added("one"), added("two")]);
  });

  it("finds the fewest edits (Myers' example: ABCABBA to CBABAC in five)", () => {
    const diff = diffLines("A\nB\nC\nA\nB\nB\nA", "C\nB\nA\nB\nA\nC")!;
    expect(diff.filter((line) => line.kind !== "same")).toHaveLength(5);
    expect(sides(diff)).toEqual({ before: "A\nB\nC\nA\nB\nB\nA", after: "C\nB\nA\nB\nA\nC" });
  });

  /** The length of the longest common subsequence, by the textbook table: the fewest edits are n + m - 2 × it. */
  function commonLines(a: string[], b: string[]): number {
    const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        table[i][j] = a[i - 1] === b[j - 1] ? table[i - 1][j - 1] + 1 : Math.max(table[i - 1][j], table[i][j - 1]);
    return table[a.length][b.length];
  }

  it("gives back both texts from a diff of random lines, with the fewest edits", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const lines = (count: number) => Array.from({ length: count }, () => "abc"[Math.floor(random() * 3)]).join("\n");
      const [before, after] = [lines(Math.floor(random() * 30)), lines(Math.floor(random() * 30))];
      const diff = diffLines(before, after)!;
      expect(sides(diff)).toEqual({ before, after });
      const [a, b] = [before.split("\n"), after.split("\n")];
      expect(diff.filter((line) => line.kind !== "same")).toHaveLength(a.length + b.length - 2 * commonLines(a, b));
    }
  });

  it("gives up past its cap of edits instead of working for the square of the lines", () => {
    const before = Array.from({ length: 5000 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 5000 }, (_, i) => `new ${i}`).join("\n");
    expect(diffLines(before, after, 1000)).toBeNull();
    expect(diffLines(`${before}\nend`, `${before}\nchanged\nend`)).toHaveLength(5002);
  });
});

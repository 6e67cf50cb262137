import { diffLines, MAX_DIFF_EDITS, type DiffLine } from "@/lib/templates/line-diff";
import type { TemplateFiles } from "@/lib/templates/files";

/**
 * One file's changes from one version to another: a file only in the newer version is all added lines, one only in
 * the older all removed. `lines` null: too many changes to be worth reading (more than MAX_DIFF_EDITS lines).
 */
export type FileDiff = {
  path: string;
  change: "added" | "removed" | "changed" | "unchanged";
  lines: DiffLine[] | null;
};

/** The line diff of every file of two versions, by path. */
export function diffVersionFiles(before: TemplateFiles, after: TemplateFiles): FileDiff[] {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return paths.map((path): FileDiff => {
    const older = Object.hasOwn(before, path) ? before[path] : null;
    const newer = Object.hasOwn(after, path) ? after[path] : null;
    if (older === null) return { path, change: "added", lines: wholeFile(newer!, "added") };
    if (newer === null) return { path, change: "removed", lines: wholeFile(older, "removed") };
    if (older === newer) return { path, change: "unchanged", lines: [] };
    return { path, change: "changed", lines: diffLines(older, newer) };
  });
}

function wholeFile(text: string, kind: "added" | "removed"): DiffLine[] | null {
  const lines = text.split("\n");
  return lines.length > MAX_DIFF_EDITS ? null : lines.map((line) => ({ kind, text: line }));
}

/** Unchanged lines shown on each side of a change; longer runs of them are folded into their count. */
export const CONTEXT_LINES = 3;

export type ShownLine = DiffLine | { kind: "folded"; count: number };

/** A diff as it is read: each change with CONTEXT_LINES unchanged lines around it, the unchanged lines between folded. */
export function foldUnchanged(lines: DiffLine[]): ShownLine[] {
  const shown: ShownLine[] = [];
  let at = 0;
  while (at < lines.length) {
    if (lines[at].kind !== "same") {
      shown.push(lines[at++]);
      continue;
    }
    let end = at;
    while (end < lines.length && lines[end].kind === "same") end++;
    const keepBefore = at === 0 ? 0 : CONTEXT_LINES;
    const keepAfter = end === lines.length ? 0 : CONTEXT_LINES;
    if (end - at > keepBefore + keepAfter + 1) {
      shown.push(...lines.slice(at, at + keepBefore), { kind: "folded", count: end - at - keepBefore - keepAfter });
      shown.push(...lines.slice(end - keepAfter, end));
    } else shown.push(...lines.slice(at, end));
    at = end;
  }
  return shown;
}

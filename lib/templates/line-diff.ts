/** One line of a diff: in both texts, only in the newer (added) or only in the older (removed). */
export type DiffLine = { kind: "same" | "added" | "removed"; text: string };

/** Beyond this many added and removed lines a diff is not worth reading (and its work grows with their square). */
export const MAX_DIFF_EDITS = 1000;

/**
 * The shortest line diff from `before` to `after` (Myers' algorithm, after the common first and last lines are set
 * aside), or null when the texts differ by more than `maxEdits` added and removed lines. Its time is bounded by
 * (lines) × (edits) and its memory by edits², so a cap on the edits bounds both.
 */
export function diffLines(before: string, after: string, maxEdits = MAX_DIFF_EDITS): DiffLine[] | null {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = shortestEdit(a.slice(start, endA), b.slice(start, endB), maxEdits);
  if (!middle) return null;
  const same = (text: string): DiffLine => ({ kind: "same", text });
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)];
}

function shortestEdit(a: string[], b: string[], maxEdits: number): DiffLine[] | null {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  // v[k + offset]: the furthest x reached on diagonal k (x - y = k) with d edits; one copy kept per d to walk back.
  let v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[k - 1 + offset] < v[k + 1 + offset]);
      let x = down ? v[k + 1 + offset] : v[k - 1 + offset] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[k + offset] = x;
      if (x >= n && y >= m) return walkBack(a, b, trace, next, d, k, offset);
    }
    v = next;
  }
  return null;
}

function walkBack(
  a: string[],
  b: string[],
  trace: Int32Array[],
  last: Int32Array,
  edits: number,
  diagonal: number,
  offset: number,
): DiffLine[] {
  const lines: DiffLine[] = [];
  let x = last[diagonal + offset];
  let y = x - diagonal;
  let k = diagonal;
  for (let d = edits; d > 0; d--) {
    const v = trace[d];
    const down = k === -d || (k !== d && v[k - 1 + offset] < v[k + 1 + offset]);
    const previousK = down ? k + 1 : k - 1;
    const previousX = v[previousK + offset];
    const previousY = previousX - previousK;
    while (x > previousX + (down ? 0 : 1) && y > previousY + (down ? 1 : 0)) {
      lines.push({ kind: "same", text: a[--x] });
      y--;
    }
    if (down) lines.push({ kind: "added", text: b[--y] });
    else lines.push({ kind: "removed", text: a[--x] });
    k = previousK;
  }
  while (x > 0 && y > 0) {
    lines.push({ kind: "same", text: a[--x] });
    y--;
  }
  return lines.reverse();
}

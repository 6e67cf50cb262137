// Where a refused message is in a locale's JSON, for the editor to mark it: the save and the preview name the file
// and the key (`welcome.title: is not a valid ICU message …`), not a line. No server-only import: the editor runs it.

/** Why a locale's file does not parse as JSON (the browser's JSON.parse message), or null when it does. */
export function jsonSyntaxProblem(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A problem the editor shows: its message, and where it is when known (a file, a line and column in it). */
export type EditorProblem = { message: string; line?: number; column?: number; path?: string };

/**
 * A problem placed in the locale's file it names: the save's and the preview's refusal of a message name its file
 * and key, not a line, so the key is looked up in the editor's copy of that file; the file's name, said beside the
 * message, is taken off its front (the save's `files.<path> `, the preview's `<path> `).
 */
export function placeMessagesProblem(problem: EditorProblem, files: { path: string; code: string }[]): EditorProblem {
  const { path } = problem;
  if (problem.line !== undefined || path === undefined || !path.endsWith(".json")) return problem;
  const named = [`files.${path} `, `${path} `].find((prefix) => problem.message.startsWith(prefix));
  const message = named ? problem.message.slice(named.length) : problem.message;
  const key = problemKey(message);
  const file = files.find((candidate) => candidate.path === path);
  const position = key && file ? keyPosition(file.code, key) : null;
  return { ...problem, message, ...(position ?? {}) };
}

/** The dotted key a messages problem starts with (`welcome.title: …`), or null. */
export function problemKey(message: string): string | null {
  return /^([^\s:"]+): /.exec(message)?.[1] ?? null;
}

/**
 * The 1-based line and column of `key`'s name (dotted: `welcome.title`) in `json`, or null when it is not there or
 * the text is no JSON object. One pass over the characters, tracking the keys of the objects it is inside.
 */
export function keyPosition(json: string, key: string): { line: number; column: number } | null {
  const wanted = key.split(".");
  // The path to the value being read: one entry per object entered, its current key (null before one is read).
  const path: (string | null)[] = [];
  // Whether the string being read next is a key: after `{` or `,` inside an object.
  let expectingKey = false;
  // Arrays entered, by depth, so a `,` inside one expects no key.
  const containers: ("object" | "array")[] = [];
  for (let at = 0; at < json.length; at++) {
    const char = json[at];
    if (char === '"') {
      const start = at;
      let text = "";
      for (at++; at < json.length && json[at] !== '"'; at++) {
        if (json[at] === "\\") {
          at++;
          text += json[at] === "u" ? String.fromCharCode(parseInt(json.slice(at + 1, at + 5), 16)) : unescape(json[at]);
          if (json[at] === "u") at += 4;
        } else text += json[at];
      }
      if (expectingKey) {
        path[path.length - 1] = text;
        expectingKey = false;
        if (path.length === wanted.length && path.every((name, index) => name === wanted[index]))
          return lineAndColumn(json, start);
      }
    } else if (char === "{") {
      containers.push("object");
      path.push(null);
      expectingKey = true;
    } else if (char === "[") {
      containers.push("array");
    } else if (char === "}") {
      containers.pop();
      path.pop();
    } else if (char === "]") {
      containers.pop();
    } else if (char === ",") {
      expectingKey = containers.at(-1) === "object";
    }
  }
  return null;
}

const ESCAPED: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };
const unescape = (char: string) => ESCAPED[char] ?? char;

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}

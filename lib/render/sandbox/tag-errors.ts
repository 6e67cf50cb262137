import ts from "typescript";

/**
 * A JSX tag written wrong (never closed, closed by another tag's closer, a closer with nothing open, `>` or `}` in
 * text), as TypeScript's parser finds it: the message, without "Syntax error: ", and the offset `tsc` would name (a
 * tag's name, a closer's name, the stray character). Sucrase cannot say this: it stops past the cause (at the `);`
 * after the element, or lines earlier, where it misread the text) and accepts a closer of another name.
 */
export type TagError = { message: string; pos: number };

// tsc's codes for what this module describes (diagnosticMessages.json).
const ELEMENT_NEVER_CLOSED = 17008; // JSX element '{0}' has no corresponding closing tag.
const FRAGMENT_NEVER_CLOSED = 17014; // JSX fragment has no corresponding closing tag.
const ELEMENT_WRONG_CLOSER = 17002; // Expected corresponding JSX closing tag for '{0}'.
const FRAGMENT_WRONG_CLOSER = 17015; // Expected corresponding closing tag for JSX fragment.
const IDENTIFIER_EXPECTED = 1003; // at the `>` of `</>` closing an element
const BRACE_IN_TEXT = 1381; // Unexpected token. Did you mean `{'}'}` or `&rbrace;`?
const ANGLE_IN_TEXT = 1382; // Unexpected token. Did you mean `{'>'}` or `&gt;`?
const TOKEN_EXPECTED = 1005; // '{0}' expected.

const CLOSING_CODES = new Set([
  ELEMENT_NEVER_CLOSED,
  FRAGMENT_NEVER_CLOSED,
  ELEMENT_WRONG_CLOSER,
  FRAGMENT_WRONG_CLOSER,
]);
// Unterminated string literal, template literal, regular expression; '*/' expected.
const UNTERMINATED_CODES = new Set([1002, 1160, 1161, 1010]);

/**
 * The recovered errors TypeScript's parser keeps on the file. Internal (not in typescript.d.ts) but what `tsc` prints
 * as a file's syntax errors; a Program only to read them would cost a type checker's setup on every failed compile.
 */
function parseDiagnostics(file: ts.SourceFile): readonly ts.DiagnosticWithLocation[] {
  return (file as ts.SourceFile & { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
}

/**
 * The tag error to report for `file`, or null when its syntax errors are of another kind. `sucraseFailed`: sucrase
 * rejected the source, so TypeScript's first error (by position, as `tsc` sorts them) must be a tag error to replace
 * sucrase's message; else (sucrase compiled it) the first tag error is reported, a closer of the wrong name or `>` in
 * text that sucrase let through. Of several unclosed tags the one whose error TypeScript raised first is named: the
 * innermost, whose missing closer is the one to type.
 */
export function tagError(file: ts.SourceFile, sucraseFailed: boolean): TagError | null {
  const diagnostics = parseDiagnostics(file);
  // A quote or comment left open swallows the closers after it: its own error (sucrase's) is the one to fix.
  if (diagnostics.some((diagnostic) => UNTERMINATED_CODES.has(diagnostic.code))) return null;
  const tagDiagnostics = diagnostics.filter((diagnostic) => isTagDiagnostic(file.text, diagnostic, sucraseFailed));
  if (tagDiagnostics.length === 0) return null;
  const earliest = firstByPosition(sucraseFailed ? diagnostics : tagDiagnostics);
  if (!tagDiagnostics.includes(earliest)) return null;
  const innermost = CLOSING_CODES.has(earliest.code)
    ? tagDiagnostics.find((d) => CLOSING_CODES.has(d.code) || isAngleExpected(d))
    : undefined;
  return describe(file, innermost ?? earliest);
}

const firstByPosition = (list: readonly ts.DiagnosticWithLocation[]) =>
  list.reduce((first, diagnostic) => (diagnostic.start < first.start ? diagnostic : first));

/** Whether describe() reads `diagnostic` as a tag error: a test of its code and a few characters at it. */
function isTagDiagnostic(source: string, diagnostic: ts.DiagnosticWithLocation, sucraseFailed: boolean): boolean {
  const { code, start } = diagnostic;
  if (CLOSING_CODES.has(code) || code === BRACE_IN_TEXT || code === ANGLE_IN_TEXT) return true;
  if (code === IDENTIFIER_EXPECTED) return source.startsWith("</>", start - 2);
  return (
    sucraseFailed && code === TOKEN_EXPECTED && (strayCloser(source, start) !== null || isAngleExpected(diagnostic))
  );
}

/** `</Name>` at `pos`, read from a bounded slice: its name, or null. */
function strayCloser(source: string, pos: number): string | null {
  return /^<\/([A-Za-z_$][\w$.:-]{0,200})\s*>/.exec(source.slice(pos, pos + 210))?.[1] ?? null;
}

const isAngleExpected = (diagnostic: ts.DiagnosticWithLocation) =>
  ts.flattenDiagnosticMessageText(diagnostic.messageText, " ") === "'>' expected.";

/** A diagnostic isTagDiagnostic accepted, in this service's words; null for a closer no element holds. */
function describe(file: ts.SourceFile, diagnostic: ts.DiagnosticWithLocation): TagError | null {
  const source = file.text;
  const { start, length } = diagnostic;
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  switch (diagnostic.code) {
    case ELEMENT_NEVER_CLOSED: {
      const name = shortened(source.slice(start, start + length));
      return { message: `\`<${name}>\` opened on line ${lineOf(start)} is never closed`, pos: start };
    }
    case FRAGMENT_NEVER_CLOSED: {
      // TypeScript counts the whitespace before the fragment into its position.
      const pos = skipTrivia(source, start);
      return { message: `\`<>\` opened on line ${lineOf(pos)} is never closed`, pos };
    }
    case ELEMENT_WRONG_CLOSER:
    case FRAGMENT_WRONG_CLOSER:
    case IDENTIFIER_EXPECTED: {
      const opener = openerClosedAt(file, start);
      if (!opener) return null;
      const openerName = ts.isJsxOpeningElement(opener) ? `<${shortened(opener.tagName.getText(file))}>` : "<>";
      const closer =
        diagnostic.code === IDENTIFIER_EXPECTED ? "</>" : `</${shortened(source.slice(start, start + length))}>`;
      const openedOn = lineOf(opener.getStart(file));
      return { message: `\`${openerName}\` opened on line ${openedOn} is closed by \`${closer}\``, pos: start };
    }
    case BRACE_IN_TEXT:
      return { message: "`}` cannot appear in JSX text: write `{'}'}` or `&rbrace;`", pos: start };
    case ANGLE_IN_TEXT:
      return { message: "`>` cannot appear in JSX text: write `{'>'}` or `&gt;`", pos: start };
    case TOKEN_EXPECTED: {
      if (isAngleExpected(diagnostic)) return { message: 'Unexpected token, expected ">"', pos: start };
      // Past every element: else it is an element's own closer after a `{` or `(` left open, sucrase's to say.
      if (insideJsx(file, start)) return null;
      return { message: `\`</${shortened(strayCloser(source, start) ?? "")}>\` closes no open tag`, pos: start };
    }
    default:
      return null;
  }
}

/**
 * The opening tag of the element or fragment whose closer holds `pos` (a fragment's closer ends where the wrong name
 * begins), the innermost: a walk of the subtrees that reach `pos`, with a stack of its own (a member chain `a.a.a…`
 * nests deeper than the call stack reaches).
 */
function openerClosedAt(file: ts.SourceFile, pos: number): ts.JsxOpeningElement | ts.JsxOpeningFragment | null {
  let found: ts.JsxOpeningElement | ts.JsxOpeningFragment | null = null;
  const pending: ts.Node[] = [file];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.pos > pos || node.end < pos) continue;
    if (ts.isJsxElement(node) && node.closingElement.pos <= pos && pos < node.closingElement.end)
      found = node.openingElement;
    if (ts.isJsxFragment(node) && node.closingFragment.end === pos) found = node.openingFragment;
    ts.forEachChild(node, (child) => void pending.push(child));
  }
  return found;
}

/** Whether an element or fragment holds `pos` (its closer's `<` past the element's start): the same walk. */
function insideJsx(file: ts.SourceFile, pos: number): boolean {
  const pending: ts.Node[] = [file];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.pos > pos || node.end <= pos) continue;
    if ((ts.isJsxElement(node) || ts.isJsxFragment(node)) && node.getStart(file) < pos) return true;
    ts.forEachChild(node, (child) => void pending.push(child));
  }
  return false;
}

/** Past the whitespace and comments at `pos`. */
function skipTrivia(source: string, pos: number): number {
  let at = pos;
  for (;;) {
    while (at < source.length && /\s/.test(source[at])) at++;
    if (source.startsWith("//", at)) {
      const end = source.indexOf("\n", at);
      at = end === -1 ? source.length : end;
    } else if (source.startsWith("/*", at)) {
      const end = source.indexOf("*/", at + 2);
      at = end === -1 ? source.length : end + 2;
    } else return at;
  }
}

/** A tag's name as a message shows it: a member chain of any length (`a.a.a…`) cut to its first 60 characters. */
const shortened = (name: string) => (name.length > 60 ? `${name.slice(0, 60)}…` : name);

/**
 * Node 20's V8 copies an object literal that starts with a spread (`{...style, color}`, `{...defaults, ...style}`) by
 * cloning the first object's hidden class, and adding any further property to such a clone takes a slow path: about
 * 0.4–1.3 µs per literal instead of 60 ns. React Email's components merge their styles that way (Text: 5.5 µs a
 * call), so on the catalogue render worker this was a third of every render. A leading `...null` copies nothing, so the
 * literal means exactly the same, but the copy starts from an empty object and takes the fast path: the welcome
 * template rendered in 258–268 µs of worker time instead of 376–415 µs, and the GC threads did half the work.
 *
 * Runs on minified output, since minifiers drop the `...null` again. A literal that is only a spread (`{...props}`)
 * is left alone: cloning is the fast part.
 */
import ts from "typescript";

export function prefixLeadingObjectSpreads(code: string): string {
  const source = ts.createSourceFile("bundle.js", code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const openingBraces: number[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isObjectLiteralExpression(node) &&
      node.properties.length > 1 &&
      ts.isSpreadAssignment(node.properties[0]!)
    ) {
      openingBraces.push(node.getStart(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const pieces: string[] = [];
  let copiedUpTo = 0;
  for (const brace of openingBraces.sort((a, b) => a - b)) {
    pieces.push(code.slice(copiedUpTo, brace + 1), "...null,");
    copiedUpTo = brace + 1;
  }
  pieces.push(code.slice(copiedUpTo));
  return pieces.join("");
}

/**
 * Makes, when a template is saved, the styles its `<Tailwind>` elements give each class: trusted code on the compile
 * worker (./compile-worker.ts), under the compile deadline. @react-email/tailwind's own `Tailwind` is asked, on
 * elements of ours that each carry one of the template's candidate classes (./tailwind-usage.ts), what it makes of
 * each class: the inline style, the class name left on the element, and the rule it puts into <head>. No code of the
 * template runs here: only its config, read as data. ./tailwind-runtime.ts applies the result in the sandbox, to the
 * elements the template renders, as @react-email/tailwind does.
 */
import { Tailwind, pixelBasedPreset, sanitizeStyleSheet, setupTailwind } from "@react-email/components";
import { createElement, isValidElement, type ReactElement, type ReactNode } from "react";
import type { CompileResult, FilesCompileResult } from "./compile-result";
import { PIXEL_BASED_PRESET, type TailwindConfigValue } from "./tailwind-config";
import {
  tailwindConfigKey,
  tailwindStylesComment,
  type TailwindClassStyle,
  type TailwindStyles,
} from "./tailwind-runtime";

type ProbeProps = { className?: string; style?: Record<string, string>; children?: ReactNode };
type Probe = ReactElement<ProbeProps>;

/** The config as `<Tailwind config>` gets it in the sandbox: pixelBasedPreset is the real preset. */
function withPreset(value: TailwindConfigValue | undefined): unknown {
  if (value === PIXEL_BASED_PRESET) return pixelBasedPreset;
  if (Array.isArray(value)) return value.map(withPreset);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, withPreset(entry)]));
  }
  return value;
}

/** Tailwind's output for a <head> and one element per class; it suspends while its compiler starts. */
async function applyTailwind(config: unknown, classes: readonly string[]): Promise<Probe[]> {
  const children = [
    createElement("head", { key: "head" }),
    ...classes.map((className, index) => createElement("div", { key: index, className })),
  ];
  for (;;) {
    try {
      return Tailwind({ config: config as never, children }) as unknown as Probe[];
    } catch (thrown) {
      if (thrown instanceof Promise) await thrown;
      else throw thrown;
    }
  }
}

/** The CSS Tailwind puts into <head> for these classes. */
async function headCss(config: unknown, classes: readonly string[]): Promise<string> {
  // With no class, Tailwind's one child comes back alone rather than in an array.
  if (classes.length === 0) return "";
  const [head] = await applyTailwind(config, classes);
  const [style] = head.props.children as Probe[];
  if (!isValidElement(style)) return "";
  return (style.props as { dangerouslySetInnerHTML: { __html: string } }).dangerouslySetInnerHTML.__html;
}

/** Each class's style, from one application of Tailwind to all of them and one more per class it puts into <head>. */
async function stylesFor(config: unknown, candidates: readonly string[]): Promise<[string, TailwindClassStyle][]> {
  const probes = (await applyTailwind(config, candidates)).slice(1);
  const styles = new Map<string, Exclude<TailwindClassStyle, 0>>();
  const kept = new Set<string>();
  // The classes it left on their element are either not Tailwind's or have a rule for <head> (renamed, or not).
  const residual: string[] = [];
  const renamed = new Set<string>();
  candidates.forEach((candidate, index) => {
    const { style = {}, className } = probes[index].props;
    if (className === candidate && Object.keys(style).length === 0) kept.add(candidate);
    else styles.set(candidate, { style, className });
    if (!className) return;
    residual.push(candidate);
    if (className !== candidate) renamed.add(candidate);
  });
  const all = await headCss(config, residual);
  if (all !== "") {
    const rules = new Map<string, string>();
    const split = async (classes: string[]): Promise<void> => {
      const css = await headCss(config, classes);
      if (css === "") return;
      if (classes.length === 1) rules.set(classes[0], css);
      else {
        const half = Math.ceil(classes.length / 2);
        await split(classes.slice(0, half));
        await split(classes.slice(half));
      }
    };
    for (const candidate of renamed) await split([candidate]);
    await split(residual.filter((candidate) => !renamed.has(candidate)));
    // <head> gets each class's rule in the order of the stylesheet: the order they come in `all`.
    let position = 0;
    let order = 0;
    const placed = new Set<string>();
    while (position < all.length) {
      const next = [...rules].find(([candidate, css]) => !placed.has(candidate) && all.startsWith(css, position));
      if (!next) throw new Error("Tailwind's rules for <head> could not be told apart");
      const [candidate, css] = next;
      placed.add(candidate);
      position += css.length;
      const entry = styles.get(candidate) ?? { style: {}, className: candidate };
      styles.set(candidate, { ...entry, css, order: order++ });
      kept.delete(candidate);
    }
  }
  return [...[...kept].map((candidate): [string, TailwindClassStyle] => [candidate, 0]), ...styles];
}

/** A node of the css-tree stylesheet setupTailwind gives: its lists have `toArray`. */
type CssNode = { type: string; [key: string]: unknown };

/** `node` and every node under it. */
function* cssNodes(node: CssNode): Generator<CssNode> {
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === "loc" || value === null || typeof value !== "object") continue;
    const list = value as { toArray?: () => CssNode[] };
    if (typeof list.toArray === "function") for (const child of list.toArray()) yield* cssNodes(child);
    else if ("type" in value) yield* cssNodes(value as CssNode);
  }
}

const hasNode = (node: CssNode, types: readonly string[]): boolean =>
  [...cssNodes(node)].some((inner) => types.includes(inner.type));
const notInlinable = ["Atrule", "PseudoClassSelector", "PseudoElementSelector"];
const nodeKey = (node: unknown): string =>
  JSON.stringify(node, (key, value: unknown) => {
    if (key === "loc") return undefined;
    const list = value as { toArray?: () => unknown[] } | null;
    return typeof list?.toArray === "function" ? list.toArray() : value;
  });

/** A class selector's name unescaped, as CSS reads it (`md\:p-4` is the class `md:p-4`). */
function unescapeClassName(name: string): string {
  return name.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|([^]))/g, (_escape, hex: string | undefined, character: string) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : character,
  );
}

/**
 * Two candidate classes whose inline styles depend on each other through CSS variables, or null. @react-email/tailwind
 * resolves a `var(--…)` left in an element's inlinable rules with the value another of the element's classes declares
 * (else the variable's @property initial value), so `shadow-md ring-2` together give a box-shadow neither gives alone.
 * Styles made one class at a time cannot reproduce that; a pair whose declared value equals what the reader gets alone
 * (`border border-solid`) changes nothing and passes.
 */
async function variableDependentPair(config: unknown, candidates: readonly string[]): Promise<[string, string] | null> {
  const setup = await setupTailwind((config ?? {}) as never);
  setup.addUtilities([...candidates]);
  const sheet = setup.getStyleSheet();
  sanitizeStyleSheet(sheet);
  const initialValues = new Map<string, string>();
  // Each class's inlinable part: the last rule naming it wins, as in @react-email/tailwind.
  const inlinable = new Map<string, CssNode[]>();
  const wanted = new Set(candidates);
  for (const node of cssNodes(sheet as unknown as CssNode)) {
    if (node.type === "Atrule" && node.name === "property" && node.prelude && node.block) {
      const [name] = [...cssNodes(node.prelude as CssNode)].filter((inner) => inner.type === "Identifier");
      const initial = [...cssNodes(node.block as CssNode)].find(
        (inner) => inner.type === "Declaration" && inner.property === "initial-value",
      );
      if (typeof name?.name === "string" && name.name.startsWith("--") && initial) {
        initialValues.set(name.name, nodeKey(initial.value));
      }
    }
    if (node.type !== "Rule") continue;
    const classes = [...cssNodes(node)]
      .filter((inner) => inner.type === "ClassSelector")
      .map((selector) => unescapeClassName(selector.name as string))
      .filter((className) => wanted.has(className));
    if (classes.length === 0) continue;
    let part: CssNode[] | null = [node];
    if (hasNode(node, notInlinable)) {
      const children = (node.block as { children: { toArray(): CssNode[] } }).children.toArray();
      const inlinableChildren = children.filter((child) => !hasNode(child, notInlinable));
      part =
        hasNode(node.prelude as CssNode, notInlinable) || inlinableChildren.length === 0 ? null : inlinableChildren;
    }
    if (part) for (const className of classes) inlinable.set(className, part);
  }
  const declared = new Map<string, Map<string, string>>();
  const read = new Map<string, Set<string>>();
  for (const [className, part] of inlinable) {
    const declarations = new Map<string, string>();
    const variables = new Set<string>();
    for (const node of part.flatMap((root) => [...cssNodes(root)])) {
      if (node.type === "Declaration" && (node.property as string).startsWith("--")) {
        declarations.set(node.property as string, nodeKey(node.value));
      }
      if (node.type === "Function" && node.name === "var") {
        const [name] = (node.children as { toArray(): CssNode[] }).toArray();
        if (name?.type === "Identifier") variables.add(name.name as string);
      }
    }
    declared.set(className, declarations);
    read.set(className, variables);
  }
  const declarers = new Map<string, [string, string][]>();
  for (const candidate of candidates) {
    for (const [variable, value] of declared.get(candidate) ?? []) {
      const list = declarers.get(variable) ?? [];
      list.push([candidate, value]);
      declarers.set(variable, list);
    }
  }
  for (const reader of candidates) {
    for (const variable of read.get(reader) ?? []) {
      const alone = declared.get(reader)?.get(variable) ?? initialValues.get(variable);
      const other = declarers.get(variable)?.find(([candidate, value]) => candidate !== reader && value !== alone);
      if (other) return [reader, other[0]];
    }
  }
  return null;
}

/**
 * The compiled template with its Tailwind styles, or a failure naming the config Tailwind could not use or two classes
 * its styles cannot keep apart (variableDependentPair). A result without `tailwind` is answered as it is.
 */
export async function addTailwindStyles<Result extends CompileResult | FilesCompileResult>(
  result: Result,
): Promise<Result | (FilesCompileResult & { ok: false })> {
  if (!result.ok || !result.tailwind) return result;
  const { tailwind, ...compiled } = result;
  const styles: TailwindStyles = [];
  for (const site of tailwind.configs) {
    const config = withPreset(site.config);
    const key = tailwindConfigKey(config);
    if (styles.some(([known]) => known === key)) continue;
    try {
      const pair = await variableDependentPair(config, tailwind.candidates);
      if (pair) {
        const message = `Tailwind classes ${pair[0]} and ${pair[1]} combine through CSS variables, which user templates do not support yet; use one of them or inline the style`;
        return { ok: false, path: site.path, line: site.line, column: site.column, message };
      }
      const classes = await stylesFor(config, tailwind.candidates);
      styles.push([key, classes, wholeClassNames(tailwind.literals, classes)]);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, path: site.path, line: site.line, column: site.column, message: `Tailwind: ${reason}` };
    }
  }
  // The styles head the code, where the sandbox reads them when it loads it.
  return { ...compiled, code: `${tailwindStylesComment(styles)}${result.code}` } as Result;
}

/** Strings of the source the sandbox works out once: not too long, and styling something (not prose). */
const MAX_SAVED_CLASS_NAMES = 1000;
const MAX_SAVED_CLASS_NAME_CHARS = 500;

function wholeClassNames(literals: readonly string[], classes: [string, TailwindClassStyle][]): string[] {
  const styled = new Set(classes.flatMap(([name, style]) => (style === 0 ? [] : [name])));
  return literals
    .filter(
      (literal) =>
        literal.length <= MAX_SAVED_CLASS_NAME_CHARS && literal.split(/\s+/).some((word) => styled.has(word)),
    )
    .slice(0, MAX_SAVED_CLASS_NAMES);
}

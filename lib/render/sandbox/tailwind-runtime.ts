/**
 * `Tailwind` inside the QuickJS sandbox (bundled into runtime.generated.js by scripts/build-sandbox-runtime.ts). It
 * walks the rendered tree as @react-email/tailwind's `Tailwind` does, so that the HTML is the same: it calls the
 * template's own components to reach their elements, inlines each class's style before the element's own `style`,
 * keeps the classes it does not inline (renamed when their rule goes into <head>), and puts those rules into every
 * <head>. The styles themselves were made when the template was saved (./tailwind-styles.ts): nothing of Tailwind's
 * compiler runs here.
 */
import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { CodeInline } from "@react-email/code-inline";
import { Container } from "@react-email/container";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Img } from "@react-email/img";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Text } from "@react-email/text";
import React, { type ReactElement, type ReactNode } from "react";

/**
 * What Tailwind makes of one class: 0 for a class it leaves as it is, else its inline style, the class name left on
 * the element (none: removed) and, for a rule that goes into <head>, its CSS and its place among those rules.
 */
export type TailwindClassStyle =
  0 | { style: Record<string, string>; className?: string; css?: string; order?: number };

/**
 * Per config (by tailwindConfigKey), each candidate class's style and the strings of the source that are whole
 * classNames of its classes (worked out once per sandbox; code saved before has none).
 */
export type TailwindStyles = [string, [string, TailwindClassStyle][], string[]?][];

/** @react-email/tailwind's key for a config. */
export function tailwindConfigKey(config: unknown): string {
  return String(JSON.stringify(config, (_key, value) => (typeof value === "function" ? value.toString() : value)));
}

declare const __PIXEL_BASED_PRESET__: unknown;
/** @react-email/tailwind's pixelBasedPreset, written into the runtime when it is built. */
export const pixelBasedPreset: unknown =
  typeof __PIXEL_BASED_PRESET__ === "undefined" ? undefined : __PIXEL_BASED_PRESET__;

type Props = { className?: string; style?: Record<string, unknown>; children?: ReactNode };
type Element = ReactElement<Props> & { type: unknown };
type Styles = Map<string, TailwindClassStyle>;

/** The components @react-email/tailwind styles as elements rather than calling them (CodeBlock is not in the sandbox). */
const componentsTreatedAsElements = new Set<unknown>([
  Body,
  Button,
  CodeInline,
  Container,
  Heading,
  Hr,
  Img,
  Link,
  Preview,
  Text,
]);

function isComponent(element: Element): boolean {
  const type = element.type as { render?: unknown };
  return (typeof type === "function" || type.render !== undefined) && !componentsTreatedAsElements.has(element.type);
}

/** What a className makes, worked out once per className string. */
type ClassNameStyle = {
  /** The classes Tailwind does not know, the first of which is an error. */
  unknown: string[];
  /** Inline style and the className left on the element (none: removed), for an element that is not a component. */
  style: Record<string, string>;
  className: string | undefined;
  /** The rules that go into <head>: [place, css]. */
  headRules: [number, string][];
};

/** Distinct classNames a render remembers; past it (classNames made at render time) they are worked out again. */
const MAX_REMEMBERED_CLASS_NAMES = 1000;

function classNameStyle(className: string, styles: Styles): ClassNameStyle {
  const result: ClassNameStyle = { unknown: [], style: {}, className: undefined, headRules: [] };
  const residual: string[] = [];
  for (const name of className.trim().split(/\s+/)) {
    // Only a className of whitespace alone gives "": it stays, as it does with @react-email/tailwind.
    const entry = name === "" ? 0 : styles.get(name);
    if (entry === undefined) {
      result.unknown.push(name);
      residual.push(name);
      continue;
    }
    if (entry === 0) {
      residual.push(name);
      continue;
    }
    Object.assign(result.style, entry.style);
    if (entry.className !== undefined) residual.push(entry.className);
    if (entry.css !== undefined) result.headRules.push([entry.order!, entry.css]);
  }
  result.className = residual.length > 0 ? residual.join(" ") : undefined;
  return result;
}

/** One render's walk: what it has seen so far. */
type Walk = {
  styles: Styles;
  /** The source's classNames, worked out when the sandbox made its `Tailwind`. */
  savedClassNames: Map<string, ClassNameStyle>;
  /** Other classNames, worked out in this render: nothing a render makes is kept for the next. */
  classNames: Map<string, ClassNameStyle>;
  headRules: Map<number, string>;
  firstUnknownClass: string | undefined;
  css: { text: string };
  inHead: boolean;
};

/**
 * The rules of every class under <Tailwind>, known only once the whole tree has been walked: rendered after it. A class
 * may put any text into a rule (`content-['</style>…']`); `<\/` is the same CSS, and it cannot end the element.
 */
function TailwindHeadStyle({ css }: { css: { text: string } }): ReactNode {
  return React.createElement("style", { dangerouslySetInnerHTML: { __html: css.text.replaceAll("</", "<\\/") } });
}

/**
 * Maps every element under `value` as React.Children.map does (arrays flattened, null and booleans dropped), calling
 * components to reach their elements as @react-email/tailwind does, and styles each element in the same walk.
 */
function styleTree(value: ReactNode, walk: Walk): ReactNode {
  if (value === null || value === undefined) return value;
  const mapped: ReactNode[] = [];
  if (isSingleNode(value)) {
    const styled = styleElement(value, walk);
    if (isSingleNode(styled)) return styled;
    pushMapped(styled, mapped);
  } else {
    collectStyled(value, walk, mapped);
  }
  return mapped.length === 1 ? mapped[0] : sameArray(value, mapped) ? value : mapped;
}

/** A string, number or element: what React.Children.map maps to itself alone. */
function isSingleNode(node: ReactNode): boolean {
  const type = typeof node;
  return type === "string" || type === "number" || type === "bigint" || React.isValidElement(node);
}

/** An array that comes back the same is kept, so that the elements holding it need no copy either. */
function sameArray(value: ReactNode, mapped: ReactNode[]): boolean {
  if (!Array.isArray(value) || value.length !== mapped.length) return false;
  for (let index = 0; index < mapped.length; index++) if (mapped[index] !== value[index]) return false;
  return true;
}

function collectStyled(value: ReactNode, walk: Walk, into: ReactNode[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectStyled(item, walk, into);
  } else if (value === null || value === undefined || typeof value === "boolean") {
    return;
  } else if (typeof value === "object" && !React.isValidElement(value)) {
    // Iterables, lazy elements and the like, resolved as React.Children resolves them.
    for (const item of React.Children.toArray(value)) pushMapped(styleElement(item, walk), into);
  } else {
    pushMapped(styleElement(value, walk), into);
  }
}

function pushMapped(mapped: ReactNode, into: ReactNode[]): void {
  if (Array.isArray(mapped)) {
    for (const item of mapped) pushMapped(item, into);
  } else if (mapped !== null && mapped !== undefined && typeof mapped !== "boolean") {
    if (typeof mapped === "object" && !React.isValidElement(mapped)) into.push(...React.Children.toArray(mapped));
    else into.push(mapped);
  }
}

function styleElement(node: ReactNode, walk: Walk): ReactNode {
  if (!React.isValidElement<Props>(node)) return node;
  const element = node as Element;
  const component = isComponent(element);
  const children =
    !component && element.props.children ? styleTree(element.props.children, walk) : element.props.children;
  let style: ClassNameStyle | undefined;
  const className = element.props.className;
  if (className) {
    style = walk.savedClassNames.get(className) ?? walk.classNames.get(className);
    if (style === undefined) {
      style = classNameStyle(className, walk.styles);
      if (walk.classNames.size >= MAX_REMEMBERED_CLASS_NAMES) walk.classNames.clear();
      walk.classNames.set(className, style);
    }
    if (walk.firstUnknownClass === undefined && style.unknown.length > 0) walk.firstUnknownClass = style.unknown[0];
    if (style.headRules.length > 0) for (const [order, css] of style.headRules) walk.headRules.set(order, css);
  }
  if (component) {
    const type = element.type as ((props: Props) => ReactNode) | { render: (props: Props) => ReactNode };
    const props = { ...element.props, children };
    return styleTree((typeof type === "object" ? type.render : type)(props), walk);
  }
  if (style === undefined && element.type !== "head" && children === element.props.children) return element;
  const overwritten: Props = {};
  if (style !== undefined) {
    overwritten.style = { ...style.style, ...element.props.style };
    overwritten.className = style.className;
  }
  if (element.type !== "head") return React.cloneElement(element, overwritten, children);
  walk.inHead = true;
  const headStyle = React.createElement(TailwindHeadStyle, { css: walk.css });
  return React.cloneElement(element, overwritten, headStyle, children);
}

type TailwindComponent = (props: { children?: ReactNode; config?: unknown }) => ReactNode;

/**
 * Saved code begins with its styles as JSON in a comment that starts so (tailwind-styles.ts), so that the sandbox
 * makes the template's `Tailwind` once, when it loads the code (runtime-harness.ts), out of the template's reach: a
 * `Tailwind` of its own making would let a template keep something from one render for the next. The end of a comment
 * inside the JSON has its slash escaped, as JSON allows.
 */
const TAILWIND_STYLES_PREFIX = "/*letterpress-tailwind-styles ";

/** The comment of `styles` for the head of saved code. */
export function tailwindStylesComment(styles: TailwindStyles): string {
  return `${TAILWIND_STYLES_PREFIX}${JSON.stringify(styles).replaceAll("*/", "*\\/")}*/\n`;
}

/** The styles at the head of saved code, or null when it has none. */
export function readTailwindStyles(code: string): TailwindStyles | null {
  if (!code.startsWith(TAILWIND_STYLES_PREFIX)) return null;
  const end = code.indexOf("*/", TAILWIND_STYLES_PREFIX.length);
  return JSON.parse(code.slice(TAILWIND_STYLES_PREFIX.length, end)) as TailwindStyles;
}

/** `Tailwind` with a template's styles. Frozen, and keeping nothing of a render: one serves all of a sandbox's renders. */
export function tailwindWithStyles(styles: TailwindStyles): TailwindComponent {
  const byConfig = new Map(
    styles.map(([key, classes, classNames = []]) => {
      const classStyles = new Map(classes);
      const saved = classNames.map(
        (className) => [className, deepFreeze(classNameStyle(className, classStyles))] as const,
      );
      return [key, { classStyles, savedClassNames: new Map(saved) }];
    }),
  );
  // An arrow function has no `prototype`.
  const Tailwind: TailwindComponent = ({ children, config }) => {
    const known = byConfig.get(tailwindConfigKey(config));
    if (!known) {
      throw new Error(
        "This <Tailwind> has a config other than the one written in the template's source when it was saved",
      );
    }
    const walk: Walk = {
      styles: known.classStyles,
      savedClassNames: known.savedClassNames,
      classNames: new Map(),
      headRules: new Map(),
      firstUnknownClass: undefined,
      css: { text: "" },
      inHead: false,
    };
    const mapped = styleTree(children, walk);
    if (walk.firstUnknownClass !== undefined) {
      throw new Error(
        `The class "${walk.firstUnknownClass}" is not written whole in the template's source: Tailwind styles the class names found in its strings when it is saved`,
      );
    }
    walk.css.text = [...walk.headRules]
      .sort(([a], [b]) => a - b)
      .map(([, rule]) => rule)
      .join("");
    if (walk.headRules.size > 0 && !walk.inHead) {
      throw new Error(
        "Tailwind classes whose rules cannot be inlined (media queries, hover, …) need a <head> (<Head />) inside <Tailwind>",
      );
    }
    return mapped;
  };
  return Object.freeze(Tailwind);
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (typeof inner === "object" && inner !== null) deepFreeze(inner);
  return Object.freeze(value);
}

/** Without the styles its template was saved with, Tailwind has nothing to apply. */
export function Tailwind(): never {
  throw new Error("Tailwind's styles are made when the template is saved; this code was compiled without them");
}
/** Code saved before TAILWIND_STYLES_PREFIX calls this in its own module, at every render. */
Tailwind.withStyles = tailwindWithStyles;

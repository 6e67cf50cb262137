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

/** Per config (by tailwindConfigKey), each candidate class's style. */
export type TailwindStyles = [string, [string, TailwindClassStyle][]][];

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
const componentsTreatedAsElements: unknown[] = [
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
];

function isComponent(element: Element): boolean {
  const type = element.type as { render?: unknown };
  return (
    (typeof type === "function" || type.render !== undefined) && !componentsTreatedAsElements.includes(element.type)
  );
}

/** Maps every element under `value`, calling components to reach theirs, as @react-email/tailwind does. */
function mapTree(value: ReactNode, process: (node: ReactNode) => ReactNode): ReactNode {
  const mapped = React.Children.map(value, (node) => {
    if (React.isValidElement<Props>(node)) {
      const props = { ...node.props };
      if (node.props.children && !isComponent(node as Element)) props.children = mapTree(node.props.children, process);
      const processed = process(React.cloneElement(node, props, props.children));
      if (React.isValidElement<Props>(processed) && isComponent(processed as Element)) {
        const type = processed.type as unknown as
          ((props: Props) => ReactNode) | { render: (props: Props) => ReactNode };
        return mapTree((typeof type === "object" ? type.render : type)(processed.props), process);
      }
      return processed;
    }
    return process(node);
  });
  return mapped && mapped.length === 1 ? mapped[0] : mapped;
}

function withInlinedStyles(element: Element, styles: Styles): Element {
  const overwritten: Props = {};
  if (element.props.className && !isComponent(element)) {
    const residual: string[] = [];
    const inlined: Record<string, string> = {};
    for (const className of element.props.className.trim().split(/\s+/)) {
      const entry = styles.get(className);
      if (!entry) {
        residual.push(className);
        continue;
      }
      Object.assign(inlined, entry.style);
      if (entry.className !== undefined) residual.push(entry.className);
    }
    overwritten.style = { ...inlined, ...element.props.style };
    overwritten.className = residual.length > 0 ? residual.join(" ") : undefined;
  }
  const props = { ...element.props, ...overwritten };
  return React.cloneElement(element, props, props.children) as Element;
}

function tailwindWithStyles(styles: TailwindStyles) {
  const byConfig = new Map(styles.map(([key, classes]) => [key, new Map(classes)]));
  return function Tailwind({ children, config }: { children?: ReactNode; config?: unknown }): ReactNode {
    const classes = byConfig.get(tailwindConfigKey(config));
    if (!classes) {
      throw new Error(
        "This <Tailwind> has a config other than the one written in the template's source when it was saved",
      );
    }
    const used: string[] = [];
    let mapped = mapTree(children, (node) => {
      if (React.isValidElement<Props>(node) && node.props.className) used.push(...node.props.className.split(/\s+/));
      return node;
    });
    const headRules = new Map<number, string>();
    for (const className of used) {
      if (className === "") continue;
      const entry = classes.get(className);
      if (entry === undefined) {
        throw new Error(
          `The class "${className}" is not written whole in the template's source: Tailwind styles the class names found in its strings when it is saved`,
        );
      }
      if (entry !== 0 && entry.css !== undefined) headRules.set(entry.order!, entry.css);
    }
    const css = [...headRules]
      .sort(([a], [b]) => a - b)
      .map(([, rule]) => rule)
      .join("");
    let inHead = false;
    mapped = mapTree(mapped, (node) => {
      if (!React.isValidElement<Props>(node)) return node;
      const element = withInlinedStyles(node as Element, classes);
      if (element.type !== "head") return element;
      inHead = true;
      const style = React.createElement("style", { dangerouslySetInnerHTML: { __html: css } });
      return React.cloneElement(element, element.props, style, element.props.children);
    });
    if (headRules.size > 0 && !inHead) {
      throw new Error(
        "Tailwind classes whose rules cannot be inlined (media queries, hover, …) need a <head> (<Head />) inside <Tailwind>",
      );
    }
    return mapped;
  };
}

/** Without the styles its template was saved with, Tailwind has nothing to apply. */
export function Tailwind(): never {
  throw new Error("Tailwind's styles are made when the template is saved; this code was compiled without them");
}
Tailwind.withStyles = tailwindWithStyles;

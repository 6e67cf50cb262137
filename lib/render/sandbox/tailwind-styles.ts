/**
 * Makes, when a template is saved, the styles its `<Tailwind>` elements give each class: trusted code on the compile
 * worker (./compile-worker.ts), under the compile deadline. @react-email/tailwind's own `Tailwind` is asked, on
 * elements of ours that each carry one of the template's candidate classes (./tailwind-usage.ts), what it makes of
 * each class: the inline style, the class name left on the element, and the rule it puts into <head>. No code of the
 * template runs here: only its config, read as data. ./tailwind-runtime.ts applies the result in the sandbox, to the
 * elements the template renders, as @react-email/tailwind does.
 */
import { Tailwind, pixelBasedPreset } from "@react-email/components";
import { createElement, isValidElement, type ReactElement, type ReactNode } from "react";
import type { CompileResult, FilesCompileResult } from "./compile-result";
import { PIXEL_BASED_PRESET, type TailwindConfigValue } from "./tailwind-config";
import { tailwindConfigKey, type TailwindClassStyle, type TailwindStyles } from "./tailwind-runtime";

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
  const [head] = await applyTailwind(config, classes);
  const [style] = head.props.children as Probe[];
  if (!isValidElement(style)) return "";
  return (style.props as { dangerouslySetInnerHTML: { __html: string } }).dangerouslySetInnerHTML.__html;
}

/** Each class's style, from one application of Tailwind to all of them and one more per class it puts into <head>. */
async function stylesFor(config: unknown, candidates: readonly string[]): Promise<[string, TailwindClassStyle][]> {
  const probes = (await applyTailwind(config, candidates)).slice(1);
  const styles = new Map<string, Exclude<TailwindClassStyle, 0>>();
  const kept: string[] = [];
  candidates.forEach((candidate, index) => {
    const { style = {}, className } = probes[index].props;
    if (className === candidate && Object.keys(style).length === 0) kept.push(candidate);
    else styles.set(candidate, { style, className });
  });
  // The classes it left on their element are either not Tailwind's or have a rule for <head> (renamed, or not).
  const residual = candidates.filter((candidate) => probes[candidates.indexOf(candidate)].props.className);
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
    const renamed = residual.filter((candidate) => probes[candidates.indexOf(candidate)].props.className !== candidate);
    for (const candidate of renamed) await split([candidate]);
    await split(residual.filter((candidate) => !renamed.includes(candidate)));
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
      kept.splice(kept.indexOf(candidate), 1);
    }
  }
  return [...kept.map((candidate): [string, TailwindClassStyle] => [candidate, 0]), ...styles];
}

/**
 * The compiled template with its Tailwind styles, or a failure naming the config Tailwind could not use. A result
 * without `tailwind` is answered as it is.
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
      styles.push([key, await stylesFor(config, tailwind.candidates)]);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, path: site.path, line: site.line, column: site.column, message: `Tailwind: ${reason}` };
    }
  }
  return { ...compiled, code: codeWithTailwindStyles(result.code, styles) } as Result;
}

/**
 * The template's code run with a `require` whose @react-email/components has a `Tailwind` holding the styles. JSON
 * writes them as data: never code.
 */
function codeWithTailwindStyles(code: string, styles: TailwindStyles): string {
  return `(function (require) {
${code}
}).call(this, (function (require) {
  var components = require("@react-email/components");
  var view = Object.assign({}, components, { Tailwind: components.Tailwind.withStyles(${JSON.stringify(styles)}) });
  Object.defineProperty(view, "__esModule", { value: true });
  Object.defineProperty(view, "default", { value: view });
  return function (specifier) { return specifier === "@react-email/components" ? view : require(specifier); };
})(require));
`;
}

/**
 * Links the compiled files of a template (./compile.ts) into one CommonJS module for the sandbox: a small module
 * registry keyed by path, whose `require` resolves a file's relative imports to the files they were resolved to when
 * compiling and leaves every other name (react, @react-email/components) to the sandbox's own require. Modules run
 * once per render, on first require, and a module required again while it runs (a cycle) gets its exports as they
 * are so far, as in CommonJS. Pure string → string: the code is never executed here.
 */

/** One compiled file: its CommonJS code and where its relative imports lead (specifier → path). */
export type CompiledModule = { code: string; imports: Record<string, string> };

/** The modules `entry` reaches through relative imports, entry first. */
function reachable(modules: ReadonlyMap<string, CompiledModule>, entry: string): string[] {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let i = 0; i < queue.length; i++) {
    for (const target of Object.values(modules.get(queue[i])!.imports)) {
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return queue;
}

/**
 * The entry's module graph as one module: its exports are the entry's. The registry's names (`__lp…`) live in the
 * outer function only: each file's code runs in a function of its own, with its own `exports`, `require` and `module`.
 */
export function linkModules(modules: ReadonlyMap<string, CompiledModule>, entry: string): string {
  const factories = reachable(modules, entry).map((path) => {
    const { code, imports } = modules.get(path)!;
    // JSON.stringify writes the paths and specifiers as string literals: never code. A relative specifier starts with
    // "." and a path ends in an extension, so no key is `__proto__`.
    return `${JSON.stringify(path)}: [function (exports, require, module) {\n${code}\n}, ${JSON.stringify(imports)}]`;
  });
  return `"use strict";
var __lpModules = {
${factories.join(",\n")}
};
var __lpLoaded = {};
var __lpHas = Object.prototype.hasOwnProperty;
function __lpLoad(path) {
  if (__lpHas.call(__lpLoaded, path)) return __lpLoaded[path].exports;
  var entry = __lpModules[path];
  var loaded = { exports: {} };
  __lpLoaded[path] = loaded;
  var requireFromFile = function (specifier) {
    if (__lpHas.call(entry[1], specifier)) return __lpLoad(entry[1][specifier]);
    // A relative name not linked at compile time: one made at run time (import(\`./messages/\${locale}.json\`)).
    if (String(specifier).charAt(0) === ".") throw new Error("Cannot find module '" + String(specifier) + "' among the template's files");
    return require(specifier);
  };
  entry[0].call(loaded.exports, loaded.exports, requireFromFile, loaded);
  return loaded.exports;
}
module.exports = __lpLoad(${JSON.stringify(entry)});
`;
}

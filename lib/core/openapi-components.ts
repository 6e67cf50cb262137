import { z } from "zod";

/**
 * The schemas the OpenAPI document lists as components, each under the id its `.meta({ id })` gives it. A registry of
 * this module's own rather than zod's global one: Next bundles pages, route handlers and client components apart, so
 * one server process can load a schema module twice, and zod's registry (one per process) then holds an id's two
 * copies, which a document built from it mixed and failed on. A copy of this module holds its own copies' schemas.
 */
export const openApiComponents = z.registry<{ id: string }>();

/** Lists a schema declared with `.meta({ id })` among the document's components: `.meta({ id }).apply(component)`. */
export function component<T extends z.ZodType>(schema: T): T {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("A component is declared with .meta({ id }) before .apply(component)");
  openApiComponents.add(schema, { id });
  return schema;
}

import { z } from "zod";
import { retryAfterHeader, type DeclaredOperation, type ResponseDoc } from "@/lib/api/operation";
import { limitsTable } from "@/lib/limits";
import { errorBodySchema, planSchema, rateLimitBodySchema } from "@/lib/schemas/common";
import "@/lib/schemas/emails";
import "@/lib/schemas/library";
import "@/lib/schemas/send";
import "@/lib/schemas/suppressions";
import "@/lib/schemas/templates";
import "@/lib/schemas/usage";

// Generated from the routes themselves: each declares its operation in withApiAuth's `openapi` option, next to the
// zod schemas it parses and answers with (every schema with a `.meta({ id })` becomes a component), so the document
// cannot drift from the code.

/**
 * The documented routes by their path under /api/v1, each a route module whose method handlers carry their declared
 * operation. The app passes them in (app/api/v1/documented-routes.ts): the layers run app → lib.
 */
export type DocumentedRoutes = Record<string, Record<string, unknown>>;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

const COMPONENTS = "#/components/schemas/";

/**
 * A schema with an id is a $ref to its component; any other is inlined, its schemas with an id as refs to their
 * components (`components` holds them all, since every schema with an id is one).
 */
function jsonSchema(
  schema: z.ZodType,
  components: Record<string, unknown>,
  io: "input" | "output" = "output",
): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: `${COMPONENTS}${id}` };
  const { $schema: _schema, $defs: defs = {}, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  const stray = Object.keys(defs).find((name) => !(name in components));
  if (stray) throw new Error(`The OpenAPI document would need a definition that is not a component: ${stray}`);
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', `"${COMPONENTS}`));
}

type JsonSchema = Record<string, unknown>;

/** A parameter's description is the parameter's, not its schema's. */
function parameter(name: string, location: "path" | "query" | "header", schema: JsonSchema, required: boolean) {
  const { description, ...rest } = schema;
  return {
    name,
    in: location,
    ...(required && { required }),
    ...(typeof description === "string" && { description }),
    schema: rest,
  };
}

type DocumentHeader = { description?: string; schema: JsonSchema };

/** Set by withApiAuth on every response of a metered route; stated on its 200 (or 201) and 429. */
function rateLimitHeaders(components: Record<string, unknown>): Record<string, DocumentHeader> {
  return {
    "X-RateLimit-Limit": {
      description: "Monthly API call limit (absent on unlimited plans)",
      schema: { type: "integer" },
    },
    "X-RateLimit-Remaining": {
      description: "Calls left this month (absent on unlimited plans)",
      schema: { type: "integer" },
    },
    "X-RateLimit-Reset": {
      description: "First instant of the next UTC month",
      schema: { type: "string", format: "date-time" },
    },
    "X-RateLimit-Plan": { description: "The caller's plan", schema: jsonSchema(planSchema, components) },
  };
}

/** What withApiAuth answers itself, whatever the route. */
const WRAPPER_RESPONSES: Record<number, ResponseDoc> = {
  401: { description: "Missing, malformed, unknown or revoked credentials", schema: errorBodySchema },
  500: { description: "Internal error; details are logged under the X-Request-Id", schema: errorBodySchema },
};
const INSUFFICIENT_SCOPE: ResponseDoc = {
  description: "a sending_access API key on an endpoint it may not call (INSUFFICIENT_SCOPE); the call is not counted",
  schema: errorBodySchema,
};
const QUOTA_EXCEEDED: ResponseDoc = {
  description: "Monthly API quota exhausted",
  schema: rateLimitBodySchema,
  headers: { "Retry-After": retryAfterHeader },
};

function operationObject(
  path: string,
  { doc, metered, sendingAccess, query, body }: DeclaredOperation,
  components: Record<string, unknown>,
) {
  const pathParameters = doc.pathParameters ?? {};
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    if (!(name in pathParameters))
      throw new Error(`${doc.operationId} declares no schema for the path parameter ${name}`);
  }
  const parameters = [
    ...Object.entries(pathParameters).map(([name, schema]) =>
      parameter(name, "path", jsonSchema(schema, components), true),
    ),
    ...queryParameters(query, components),
    ...Object.entries(doc.headers ?? {}).map(([name, schema]) =>
      parameter(name, "header", jsonSchema(schema, components, "input"), !schema.safeParse(undefined).success),
    ),
  ];
  const requestSchema = doc.requestBody ?? body;
  const responses: Record<number, ResponseDoc> = { ...WRAPPER_RESPONSES, ...doc.responses };
  if (metered) responses[429] ??= QUOTA_EXCEEDED;
  if (!sendingAccess) {
    const own = responses[403];
    responses[403] = own
      ? { ...own, description: `${own.description}; or ${INSUFFICIENT_SCOPE.description}` }
      : INSUFFICIENT_SCOPE;
  }
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: sendingAccess
      ? "Full-access and sending-access API keys may call it."
      : "Full-access API keys (and the dashboard's session) only.",
    "x-api-key-scopes": sendingAccess ? ["full_access", "sending_access"] : ["full_access"],
    ...(parameters.length > 0 && { parameters }),
    ...(requestSchema && {
      // withApiAuth parses a missing or empty body as `{}`: the body is required when `{}` is not a valid one.
      requestBody: {
        required: !requestSchema.safeParse({}).success,
        content: { "application/json": { schema: jsonSchema(requestSchema, components, "input") } },
      },
    }),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, response]) => {
        const headers: Record<string, DocumentHeader> = {
          ...(metered && (status === "200" || status === "201" || status === "429") && rateLimitHeaders(components)),
          ...Object.fromEntries(
            Object.entries(response.headers ?? {}).map(([name, header]) => [
              name,
              {
                ...(header.description && { description: header.description }),
                schema: jsonSchema(header.schema, components),
              },
            ]),
          ),
        };
        const content = { "application/json": { schema: jsonSchema(response.schema, components) } };
        return [
          status,
          { description: response.description, content, ...(Object.keys(headers).length > 0 && { headers }) },
        ];
      }),
    ),
  };
}

/** One parameter per property of the route's query schema, with its bounds and default. */
function queryParameters(query: z.ZodType | undefined, components: Record<string, unknown>) {
  if (!query) return [];
  const output = jsonSchema(query, components) as { properties?: Record<string, JsonSchema> };
  const input = jsonSchema(query, components, "input") as { required?: string[] };
  return Object.entries(output.properties ?? {}).map(([name, schema]) =>
    parameter(name, "query", schema, input.required?.includes(name) ?? false),
  );
}

function documentPaths(routes: DocumentedRoutes, components: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(routes).map(([path, route]) => {
      const operations = METHODS.flatMap((method) => {
        const operation = (route[method] as { operation?: DeclaredOperation } | undefined)?.operation;
        return operation ? [[method.toLowerCase(), operationObject(path, operation, components)] as const] : [];
      });
      if (operations.length === 0) throw new Error(`No method of ${path} declares its OpenAPI operation`);
      return [path, Object.fromEntries(operations)];
    }),
  );
}

function componentSchemas(): Record<string, unknown> {
  const options = { uri: (id: string) => `#/components/schemas/${id}`, unrepresentable: "any" as const };
  const output = z.toJSONSchema(z.globalRegistry, { ...options, io: "output" }).schemas;
  // Request bodies are documented as clients send them: fields with defaults are optional.
  const input = z.toJSONSchema(z.globalRegistry, { ...options, io: "input" }).schemas;
  const strip = (schema: Record<string, unknown>) => {
    const { $schema: _schema, $id: _id, ...rest } = schema;
    return rest;
  };
  const all: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(output)) all[id] = strip(schema as Record<string, unknown>);
  for (const id of ["RenderRequest", "SendRequest", "TemplateRequest"])
    all[id] = strip(input[id] as Record<string, unknown>);
  return all;
}

export function buildOpenApiDocument(serverUrl: string, routes: DocumentedRoutes) {
  const components = componentSchemas();
  return {
    openapi: "3.1.0",
    info: {
      title: "Letterpress API",
      version: "1.0.0",
      description: [
        "Render, download and send React Email templates from your library. Authenticate with `X-API-Key: <key>` or `Authorization: Bearer <key>` (server-side), or the dashboard's session cookie (browser).",
        "## Limits",
        limitsTable(),
      ].join("\n\n"),
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ apiKey: [] }, { bearer: [] }, { session: [] }],
    paths: documentPaths(routes, components),
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        bearer: { type: "http", scheme: "bearer" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "lp-auth-token",
          description: "Dashboard session (sb-<project>-auth-token with Supabase Auth)",
        },
      },
    },
  };
}

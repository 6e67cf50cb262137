import { z } from "zod";
import { API_OPERATIONS } from "@/lib/api/contract";
import { errorResponseCodes, type Operation, type ResponseDoc } from "@/lib/api/contract/define";
import { errorResponseDoc } from "@/lib/api/contract/error-responses";
import { APP_ERROR_CODES, type AppErrorCode } from "@/lib/core/errors";
import { limitsTable } from "@/lib/core/limits";
import { openApiComponents } from "@/lib/core/openapi-components";
import { planSchema } from "@/lib/core/schemas";
import { ADMIN_AREAS } from "@/lib/teams/rights";

// Generated from the contract (lib/api/contract/): each operation declares its zod schemas and the codes it answers,
// and its route implements it with those same schemas (every schema declared `.meta({ id }).apply(component)` is a
// component), so the document cannot drift from the code.

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
  const id = openApiComponents.get(schema)?.id;
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

function operationObject(operation: Operation, components: Record<string, unknown>) {
  const { success, alsoSuccess, sendingAccess = false } = operation;
  const parameters = [
    ...Object.entries(operation.pathParameters ?? {}).map(([name, schema]) =>
      parameter(name, "path", jsonSchema(schema, components), true),
    ),
    ...queryParameters(operation.query, components),
    ...Object.entries(operation.headers ?? {}).map(([name, schema]) =>
      parameter(name, "header", jsonSchema(schema, components, "input"), !schema.safeParse(undefined).success),
    ),
  ];
  const requestSchema = operation.requestBody ?? operation.body;
  const responses: Record<number, unknown> = {
    [success.status]: response(operation, success.status, success, components),
    ...(alsoSuccess && { [alsoSuccess.status]: response(operation, alsoSuccess.status, alsoSuccess, components) }),
  };
  const errorDescriptions: Operation["errorDescriptions"] = {
    ...(operation.adminArea && {
      ADMIN_REQUIRED: `A team member's browser session: only the team's admins manage ${ADMIN_AREAS[operation.adminArea]}`,
    }),
    ...operation.errorDescriptions,
  };
  for (const [status, codes] of codesByStatus(errorResponseCodes(operation))) {
    const errorDocs = codes.map((code) => errorResponseDoc(code, errorDescriptions[code]));
    const schemas = [...new Set(errorDocs.map((errorDoc) => errorDoc.schema))];
    const documented: ResponseDoc = {
      description: errorDocs.map((errorDoc, i) => `${errorDoc.description} (${codes[i]})`).join(". "),
      schema: schemas.length === 1 ? schemas[0] : z.xor(schemas),
      headers: Object.assign({}, ...errorDocs.map((errorDoc) => errorDoc.headers)),
    };
    responses[status] = { ...response(operation, status, documented, components), "x-error-codes": codes };
  }
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: sendingAccess
      ? "Full-access and sending-access API keys may call it."
      : operation.adminArea
        ? "Full-access API keys (and the dashboard's session of one of the team's admins) only."
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
    responses,
  };
}

/** The codes by the status they answer with, in status order. */
function codesByStatus(codes: AppErrorCode[]): [number, AppErrorCode[]][] {
  const byStatus = new Map<number, AppErrorCode[]>();
  for (const code of codes) {
    const { status } = APP_ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus].sort(([a], [b]) => a - b);
}

function response(
  { metered }: Operation,
  status: number,
  { description, schema, headers = {} }: ResponseDoc,
  components: Record<string, unknown>,
) {
  const documented: Record<string, DocumentHeader> = {
    ...(metered && (status < 300 || status === 429) && rateLimitHeaders(components)),
    ...Object.fromEntries(
      Object.entries(headers).map(([name, header]) => [
        name,
        {
          ...(header.description && { description: header.description }),
          schema: jsonSchema(header.schema, components),
        },
      ]),
    ),
  };
  return {
    description,
    content: { "application/json": { schema: jsonSchema(schema, components) } },
    ...(Object.keys(documented).length > 0 && { headers: documented }),
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

/** The operations by path, in the contract's order. */
function documentPaths(components: Record<string, unknown>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of API_OPERATIONS) {
    paths[operation.path] ??= {};
    paths[operation.path][operation.method.toLowerCase()] = operationObject(operation, components);
  }
  return paths;
}

function componentSchemas(): Record<string, unknown> {
  const options = { uri: (id: string) => `#/components/schemas/${id}`, unrepresentable: "any" as const };
  const output = z.toJSONSchema(openApiComponents, { ...options, io: "output" }).schemas;
  // Request bodies are documented as clients send them: fields with defaults are optional.
  const input = z.toJSONSchema(openApiComponents, { ...options, io: "input" }).schemas;
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

export function buildOpenApiDocument(serverUrl: string) {
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
    paths: documentPaths(components),
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

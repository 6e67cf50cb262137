import { z } from "zod";
import { limitsTable } from "@/lib/limits";
import "@/lib/schemas/library";
import "@/lib/schemas/send";
import "@/lib/schemas/templates";
import "@/lib/schemas/usage";

// Generated from the zod schemas the routes parse and answer with (every schema with a `.meta({ id })` becomes a
// component), so the document cannot drift from the code.

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string, description: string) => ({ description, content: { "application/json": { schema: ref(id) } } });

const rateLimitHeaders = {
  "X-RateLimit-Limit": { description: "Monthly API call limit (absent on unlimited plans)", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Calls left this month (absent on unlimited plans)", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "First instant of the next UTC month", schema: { type: "string", format: "date-time" } },
  "X-RateLimit-Plan": { description: "The caller's plan", schema: { type: "string", enum: ["free", "monthly", "annual"] } },
};

const common = {
  "401": json("Error", "Missing, malformed, unknown or revoked credentials"),
  "500": json("Error", "Internal error; details are logged under the X-Request-Id"),
};
const metered = {
  "429": { ...json("RateLimitExceeded", "Monthly API quota exhausted"), headers: { ...rateLimitHeaders, "Retry-After": { schema: { type: "integer" } } } },
};
const sandboxBusy = { "503": { ...json("Error", "A render or compile queue is full (SANDBOX_BUSY); retry after Retry-After seconds"), headers: { "Retry-After": { schema: { type: "integer" } } } } };
const templateId = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };

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
  for (const id of ["RenderRequest", "SendRequest"]) all[id] = strip(input[id] as Record<string, unknown>);
  return all;
}

export function buildOpenApiDocument(serverUrl: string) {
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
    paths: {
      "/library": {
        get: {
          operationId: "listLibrary",
          summary: "List the templates in your library, newest addition first",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 50 } },
            { name: "offset", in: "query", schema: { type: "integer", minimum: 0, maximum: 2147483647, default: 0 } },
          ],
          responses: {
            "200": { ...json("LibraryResponse", "A page of your library"), headers: rateLimitHeaders },
            "400": json("ValidationError", "Bad limit or offset"),
            ...common,
            ...metered,
          },
        },
      },
      "/templates/{id}/render": {
        post: {
          operationId: "renderTemplate",
          summary: "Render a template with variables to HTML (and plain text) or to React source",
          parameters: [templateId],
          requestBody: { required: false, content: { "application/json": { schema: ref("RenderRequest") } } },
          responses: {
            "200": { ...json("RenderResponse", "The rendered template"), headers: rateLimitHeaders },
            "400": json("ValidationError", "Bad variables, format or plain_text"),
            "403": json("TemplateAccessDenied", "A paid catalogue template you have not purchased"),
            "404": json("Error", "No such template you may render (TEMPLATE_NOT_FOUND)"),
            "422": json("Error", "The template's code threw or exceeded its time or memory limit, or its HTML passed 5 MB (RENDER_ERROR)"),
            ...sandboxBusy,
            ...common,
            ...metered,
          },
        },
      },
      "/templates/{id}/source": {
        get: {
          operationId: "getTemplateSource",
          summary: "Download the React Email source of a template in your library",
          parameters: [templateId],
          responses: {
            "200": json("TemplateSourceResponse", "The template's source"),
            "404": json("Error", "Not in your library (TEMPLATE_NOT_FOUND)"),
            ...common,
          },
        },
      },
      "/send": {
        post: {
          operationId: "sendEmail",
          summary: "Send an email rendered from a template in your library",
          parameters: [
            { name: "Idempotency-Key", in: "header", schema: { type: "string", minLength: 1, maxLength: 256 }, description: "Replays the first response for 24 hours" },
          ],
          requestBody: { required: true, content: { "application/json": { schema: ref("SendRequest") } } },
          responses: {
            "200": { ...json("SendResponse", "Sent (or scheduled)"), headers: rateLimitHeaders },
            "400": json("ValidationError", "Invalid fields; each problem is one entry of details"),
            "404": json("Error", "The template is not in your library (TEMPLATE_NOT_FOUND)"),
            "409": json("Error", "Idempotency-Key reused with a different body (IDEMPOTENCY_CONFLICT)"),
            "429": {
              description: "API quota exhausted (RateLimitExceeded) or the free plan's monthly emails used up (EmailLimitExceeded)",
              content: { "application/json": { schema: { oneOf: [ref("RateLimitExceeded"), ref("EmailLimitExceeded")] } } },
              headers: rateLimitHeaders,
            },
            "422": json("Error", "The template's code threw or exceeded its time or memory limit, or its HTML passed 5 MB (RENDER_ERROR)"),
            "502": json("Error", "The email provider failed; the message is kept as failed and not counted"),
            ...sandboxBusy,
            ...common,
          },
        },
      },
      "/usage": {
        get: {
          operationId: "getUsage",
          summary: "API calls and emails this month against your plan's limits",
          responses: { "200": json("UsageResponse", "Current usage"), ...common },
        },
      },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        bearer: { type: "http", scheme: "bearer" },
        session: { type: "apiKey", in: "cookie", name: "lp-auth-token", description: "Dashboard session (sb-<project>-auth-token with Supabase Auth)" },
      },
    },
  };
}

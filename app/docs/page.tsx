import type { CLIENT_METHODS } from "letterpress";
import type { Metadata } from "next";
import { connection } from "next/server";
import { Fragment, type ReactNode } from "react";
import { getConfig } from "@/lib/core/config";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { PLANS, PLAN_NAMES, TEST_EMAILS_PER_DAY } from "@/lib/core/plans";
import { WEBHOOK_MAX_RESPONSE_BYTES, WEBHOOK_TIMEOUT_MS } from "@/lib/core/limits";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/schemas";
import { formatNumber, PLAN_LABEL } from "../_components/format";
import { SiteFooter, SiteHeader } from "../_components/site-header";
import { clientFirstRun } from "./client-first-run";
import { clientExample, EXAMPLE_BODIES } from "./examples";
import { Description, refName, SchemaRef, SchemaTable, schemaAnchor, type JsonSchema } from "./schema-view";
import { ScrollBox } from "./scroll-box";
import { CodeSnippet } from "../_components/code-snippet";
import { ColumnHeadings } from "../_components/column-headings";

export const metadata: Metadata = {
  title: "API reference",
  description:
    "The Letterpress HTTP API: authentication, limits, errors and every endpoint, generated from its OpenAPI document.",
};

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema };
type Response = {
  description: string;
  content?: Record<string, { schema: JsonSchema }>;
  headers?: Record<string, { description?: string; schema?: JsonSchema }>;
  "x-error-codes"?: string[];
};
type Operation = {
  operationId: keyof typeof CLIENT_METHODS;
  summary: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, Response>;
  "x-api-key-scopes": string[];
};

// Rendered per request: the servers' URL is the deployment's site URL at run time, which a build must not read.
export default async function DocsPage() {
  await connection();
  const { siteUrl } = getConfig();
  const doc = buildOpenApiDocument(siteUrl);
  const base = doc.servers[0].url;
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })),
  );
  const schemas = doc.components.schemas as Record<string, JsonSchema>;
  // A metered operation is the one that can answer 429 for the month's API calls.
  const metered = operations.filter(({ operation }) => operation.responses["429"] !== undefined);
  const sendingOnly = operations.filter(({ operation }) => operation["x-api-key-scopes"].includes("sending_access"));

  return (
    <>
      <SiteHeader />
      <div className="container docs-layout">
        <nav className="docs-toc" aria-label="On this page">
          <Contents operations={operations} />
        </nav>
        {/* The same links folded into a menu where the sidebar is hidden (narrow screens), so the page opens on its
            content: a closed <details> hides them without scripts. */}
        <details className="docs-toc-menu">
          <summary>On this page</summary>
          <nav className="docs-toc" aria-label="On this page">
            <Contents operations={operations} />
          </nav>
        </details>

        <main id="main" className="docs-content">
          <section id="introduction" aria-labelledby="introduction-title">
            <h1 id="introduction-title">{doc.info.title}</h1>
            <p className="muted">
              Version {doc.info.version} · OpenAPI {doc.openapi}
            </p>
            <p>
              Render, download and send React Email templates from your library. Requests and responses are JSON; every
              response carries an <code>X-Request-Id</code> header to quote when asking for help.
            </p>
            <p>
              Base URL: <code>{base}</code>
            </p>
            <p>
              This page is generated from the machine-readable <a href="/api/v1/openapi.json">OpenAPI document</a>,
              which you can load into Postman, Insomnia or a client generator.
            </p>
          </section>

          <section id="authentication" aria-labelledby="authentication-title">
            <h2 id="authentication-title">Authentication</h2>
            <p>
              Generate a key in the dashboard under <strong>Settings → API Keys</strong> and send it with each request,
              in either header. The examples read it from the <code>LETTERPRESS_API_KEY</code> environment variable:
            </p>
            <DocsCode
              name="Authentication example"
              code={`export LETTERPRESS_API_KEY=lp_live_…\n\ncurl ${base}/usage \\\n  -H "X-API-Key: $LETTERPRESS_API_KEY"\n\ncurl ${base}/usage \\\n  -H "Authorization: Bearer $LETTERPRESS_API_KEY"`}
            />
            <p style={{ marginTop: 12 }}>
              Each endpoint&apos;s example shows its call with the TypeScript client first. The client is not on the npm
              registry: this app serves it. In your project (<code>npm init -y</code> for a new one), with the key
              exported as above, install it and TypeScript; <code>npx letterpress types</code> then types your
              templates&apos; variables, and <code>npx tsc</code> refuses a wrong template id or variable:
            </p>
            <DocsCode name="Client install example" code={clientFirstRun(siteUrl)} />
            <p style={{ marginTop: 12 }}>The client is set up once with the same variable:</p>
            <DocsCode
              name="Client setup example"
              code={`import { Letterpress } from "letterpress";\nconst lp = new Letterpress({ apiKey: process.env.LETTERPRESS_API_KEY, baseUrl: "${base}" });`}
            />
            <p style={{ marginTop: 12 }}>
              Keys are secrets: keep them on your server. When you are signed in to the dashboard, the browser session
              cookie also authenticates API requests from the dashboard&apos;s own pages; a cookie-authenticated{" "}
              <code>POST</code> from another site is refused with <code>403 CSRF_REJECTED</code>. Missing, malformed,
              unknown, revoked or expired credentials get <code>401 UNAUTHORIZED</code>, whose <code>message</code> says
              which: no credentials, a malformed key, an unknown or revoked key (the two are not told apart), an expired
              key, an <code>Authorization</code> header without <code>Bearer</code>, a session that expired (sign in
              again), or a session whose person belongs to no team (create one, or accept an invitation). It never
              quotes the key.
            </p>
            <p style={{ marginTop: 12 }}>
              A live key (<code>lp_live_…</code>) sends for real. A test key (<code>lp_test_…</code>) works the same,
              but its emails stay in the outbox marked <code>&quot;test&quot;: true</code>: they never reach a provider
              and do not count toward the month&apos;s emails (at most {TEST_EMAILS_PER_DAY} a day). A key has full
              access, or sending access only (
              <Endpoints endpoints={sendingOnly} />; anything else answers <code>403 INSUFFICIENT_SCOPE</code> and is
              not counted), may be bound to one of your sending domains (then <code>from</code> must be on it) and may
              expire. Keys match <code>lp_(live|test)_[0-9A-Za-z]{"{49}"}</code>; the last six characters are a CRC-32
              checksum of the rest in base62, so a secret scanner can tell a real key from a lookalike.
            </p>
          </section>

          <section id="rate-limits" aria-labelledby="rate-limits-title">
            <h2 id="rate-limits-title">Plans and rate limits</h2>
            <p>
              Limits apply per calendar month in UTC. Metered endpoints (
              <Endpoints endpoints={metered} />) count each authenticated call once and answer with{" "}
              <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code>, <code>X-RateLimit-Reset</code> and{" "}
              <code>X-RateLimit-Plan</code> headers. Past the limit they answer <code>429 RATE_LIMIT_EXCEEDED</code>{" "}
              with a <code>Retry-After</code> header; a refused call is not counted.
            </p>
            <ScrollBox className="table-wrap card" name="Plans and rate limits">
              <table className="table">
                <ColumnHeadings
                  columns={["Plan", "API calls / month", "Emails / month", "Library size", "Paid purchases / month"]}
                />
                <tbody>
                  {PLAN_NAMES.map((name) => {
                    const plan = PLANS[name];
                    return (
                      <tr key={name}>
                        <td>
                          <strong>{PLAN_LABEL[name]}</strong>
                        </td>
                        <td>{plan.apiCallsPerMonth === null ? "Unlimited" : formatNumber(plan.apiCallsPerMonth)}</td>
                        <td>
                          {formatNumber(plan.emailsPerMonth)}
                          {plan.emailOverage ? ", then overage" : ", then refused"}
                        </td>
                        <td>{plan.librarySize === null ? "Unlimited" : plan.librarySize}</td>
                        <td>{plan.paidPurchasesPerMonth === null ? "Unlimited" : plan.paidPurchasesPerMonth}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollBox>
            <p>
              Team seats (members and pending invitations):{" "}
              {PLAN_NAMES.map((name) => `${PLAN_LABEL[name]} ${PLANS[name].seats ?? "unlimited"}`).join(", ")}.
            </p>
          </section>

          <section id="errors" aria-labelledby="errors-title">
            <h2 id="errors-title">Errors</h2>
            <p>
              Failures answer with a JSON body: <code>error</code> (a short summary), <code>success: false</code>, and
              usually a machine-readable <code>code</code>, a <code>message</code> and <code>details</code>. Validation
              errors list one <code>{"{ field, message }"}</code> per problem, with dotted field paths such as{" "}
              <code>variables.orderId</code> or <code>tags.0.name</code>.
            </p>
            <DocsCode
              name="Error example"
              code={`{
  "error": "Invalid request body",
  "code": "VALIDATION_ERROR",
  "success": false,
  "details": [{ "field": "to", "message": "must be a valid email address" }]
}`}
            />
          </section>

          <section id="receiving-webhooks" aria-labelledby="receiving-webhooks-title">
            <h2 id="receiving-webhooks-title">Receiving webhooks</h2>
            <p>
              An endpoint you add with <code>POST /webhooks</code> is sent a <code>POST</code> with a JSON body for each
              event it chose:{" "}
              {WEBHOOK_EVENT_TYPES.map((type, index) => (
                <Fragment key={type}>
                  {index > 0 && ", "}
                  <code>{type}</code>
                </Fragment>
              ))}
              . An <code>email.*</code> event&apos;s <code>data</code> is the email as <code>GET /emails/{"{id}"}</code>{" "}
              shows it (<code>email_id</code> is its id) with the status the event left it in, and <code>bounce</code>{" "}
              or <code>click</code> where the event has one; test keys&apos; emails are sent too, with{" "}
              <code>&quot;test&quot;: true</code>.
            </p>
            <DocsCode
              name="A delivery's body"
              code={`{
  "type": "email.delivered",
  "created_at": "2026-12-02T09:30:00.000Z",
  "data": {
    "email_id": "…", "from": "Acme <hello@mail.example.com>", "to": ["ada@example.org"], "cc": [], "bcc": [],
    "subject": "Welcome to Acme", "template_id": "…", "template_version": 3, "tags": [],
    "status": "delivered", "test": false
  }
}`}
            />
            <p>
              Each delivery is signed as <a href="https://www.standardwebhooks.com">Standard Webhooks</a> with the
              endpoint&apos;s secret (<code>whsec_…</code>): headers <code>webhook-id</code> (the event&apos;s id, the
              same on every attempt: de-duplicate by it), <code>webhook-timestamp</code> and{" "}
              <code>webhook-signature</code> (during the 24 hours after a rotation, one signature for each secret).
              Verify it on the body exactly as it came, with the typed client or any Standard Webhooks library (
              <code>standardwebhooks</code>, <code>svix</code>):
            </p>
            <DocsCode
              name="Verifying a delivery"
              code={`import { Letterpress } from "letterpress";

export async function POST(request: Request) {
  const event = Letterpress.webhooks.verify(await request.text(), request.headers, process.env.LETTERPRESS_WEBHOOK_SECRET!);
  if (event.type === "email.bounced") await stopMailing(event.data.to);
  return new Response(null, { status: 204 });
}`}
            />
            <p>
              Answer with a 2xx within {WEBHOOK_TIMEOUT_MS / 1000} seconds; nothing past{" "}
              {WEBHOOK_MAX_RESPONSE_BYTES / 1024} KB of your answer is read, and redirects are not followed. Anything
              else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all, each delay with up
              to 10% jitter); attempts may arrive out of order. An endpoint whose deliveries have all failed for 5 days
              is disabled, and your account is told by email. <code>GET /webhooks/{"{id}"}/deliveries</code> shows the
              last 30 days&apos; deliveries, and any can be sent again with <code>…/replay</code>.
            </p>
          </section>

          {operations.map(({ path, method, operation }) => {
            const body = operation.requestBody?.content["application/json"]?.schema;
            const bodySchema = body?.$ref ? schemas[refName(body.$ref)] : body;
            return (
              <section
                key={operation.operationId}
                id={operation.operationId}
                aria-labelledby={`${operation.operationId}-title`}
              >
                <h2 id={`${operation.operationId}-title`} className="row" style={{ gap: 10 }}>
                  <span className={`method method-${method}`}>{method.toUpperCase()}</span>
                  <span className="endpoint-path">{path}</span>
                </h2>
                <p>{operation.summary}.</p>

                {operation.parameters && operation.parameters.length > 0 && (
                  <>
                    <h3>Parameters</h3>
                    <ScrollBox className="table-wrap card" name={`Parameters of ${method.toUpperCase()} ${path}`}>
                      <table className="table schema-table">
                        <ColumnHeadings columns={["Name", "In", "Type", "Notes"]} />
                        <tbody>
                          {operation.parameters.map((parameter) => (
                            <tr key={`${parameter.in}-${parameter.name}`}>
                              <td>
                                {parameter.name}
                                {parameter.required && (
                                  <span className="badge badge-accent" style={{ marginLeft: 8 }}>
                                    required
                                  </span>
                                )}
                              </td>
                              <td className="small">{parameter.in}</td>
                              <td className="small">
                                {parameter.schema ? <SchemaRef schema={parameter.schema} /> : "string"}
                              </td>
                              <td className="small muted">
                                {parameter.description && <Description text={parameter.description} />}
                                {parameter.schema?.minimum !== undefined && ` Min ${parameter.schema.minimum}.`}
                                {parameter.schema?.maximum !== undefined && ` Max ${parameter.schema.maximum}.`}
                                {parameter.schema?.default !== undefined &&
                                  ` Default ${JSON.stringify(parameter.schema.default)}.`}
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </ScrollBox>
                  </>
                )}

                {bodySchema && (
                  <>
                    <h3>
                      Request body{" "}
                      <span className="muted small" style={{ fontWeight: 400 }}>
                        {operation.requestBody?.required ? "required" : "optional"}
                        {body?.$ref && (
                          <>
                            {" "}
                            · <SchemaRef schema={body} />
                          </>
                        )}
                      </span>
                    </h3>
                    <SchemaTable schema={bodySchema} name={`Request body of ${method.toUpperCase()} ${path}`} />
                  </>
                )}

                <h3>Responses</h3>
                <ScrollBox className="table-wrap card" name={`Responses of ${method.toUpperCase()} ${path}`}>
                  <table className="table">
                    <ColumnHeadings columns={["Status", "Meaning", "Body"]} />
                    <tbody>
                      {Object.entries(operation.responses).map(([status, response]) => {
                        const schema = response.content?.["application/json"]?.schema;
                        return (
                          <tr key={status}>
                            <td className={`status-code status-${status[0]}`}>{status}</td>
                            <td className="small">
                              <Meaning response={response} />
                              {response.headers && (
                                <div className="muted" style={{ marginTop: 4 }}>
                                  Headers:{" "}
                                  <CodeList
                                    codes={Object.keys(response.headers).map((name) => ({ key: name, code: name }))}
                                  />
                                </div>
                              )}
                            </td>
                            <td className="small">{schema ? <SchemaRef schema={schema} /> : "—"}</td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </ScrollBox>

                <h3>Example</h3>
                <figure style={{ margin: "0 0 12px" }}>
                  <figcaption className="small muted">TypeScript</figcaption>
                  <DocsCode
                    name={`TypeScript example: ${method.toUpperCase()} ${path}`}
                    code={clientExample(operation.operationId, path)}
                  />
                </figure>
                <figure style={{ margin: "0 0 12px" }}>
                  <figcaption className="small muted">curl</figcaption>
                  <DocsCode
                    name={`curl example: ${method.toUpperCase()} ${path}`}
                    code={
                      `curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} ${base}${path.replace("{id}", "<template id>")} \\\n  -H "X-API-Key: $LETTERPRESS_API_KEY"` +
                      (EXAMPLE_BODIES[operation.operationId]
                        ? ` \\\n  -H "Content-Type: application/json" \\\n  -d '${EXAMPLE_BODIES[operation.operationId]}'`
                        : "")
                    }
                  />
                </figure>
              </section>
            );
          })}

          <section id="schemas" aria-labelledby="schemas-title">
            <h2 id="schemas-title">Schemas</h2>
            <p className="muted">Every request and response body the API uses, as referenced above.</p>
            {Object.entries(schemas).map(([name, schema]) => (
              <div key={name} id={schemaAnchor(name)} style={{ scrollMarginTop: 84 }}>
                <h3 className="mono">{name}</h3>
                <SchemaTable schema={schema} name={name} />
              </div>
            ))}
          </section>
        </main>
      </div>
      <SiteFooter />
    </>
  );
}

/** The page's table of contents: the guide's sections, every operation and the schemas. */
function Contents({ operations }: { operations: { path: string; method: string; operation: Operation }[] }) {
  return (
    <>
      <div className="toc-title">Guide</div>
      <ul>
        <li>
          <a href="#introduction">Introduction</a>
        </li>
        <li>
          <a href="#authentication">Authentication</a>
        </li>
        <li>
          <a href="#rate-limits">Plans and rate limits</a>
        </li>
        <li>
          <a href="#errors">Errors</a>
        </li>
        <li>
          <a href="#receiving-webhooks">Receiving webhooks</a>
        </li>
      </ul>
      <div className="toc-title">Endpoints</div>
      <ul>
        {operations.map(({ path, method, operation }) => (
          <li key={operation.operationId}>
            <a href={`#${operation.operationId}`}>
              <span className="mono small" style={{ color: method === "get" ? "var(--success)" : "var(--accent)" }}>
                {method.toUpperCase()}
              </span>{" "}
              {path.split("/").map((part, index) => (
                // A line may break after each slash of a long path.
                <Fragment key={index}>
                  {index > 0 && (
                    <>
                      /<wbr />
                    </>
                  )}
                  {part}
                </Fragment>
              ))}
            </a>
          </li>
        ))}
      </ul>
      <div className="toc-title">Reference</div>
      <ul>
        <li>
          <a href="#schemas">Schemas</a>
        </li>
        <li>
          <a href="/api/v1/openapi.json">OpenAPI JSON</a>
        </li>
      </ul>
    </>
  );
}

/** A code block of the page: scrolls sideways on its own where it is wider than the screen, with a Copy button. */
function DocsCode({ name, code }: { name: string; code: string }) {
  return (
    <CodeSnippet name={name} code={code}>
      <ScrollBox as="pre" className="code-block" name={name}>
        <code>{code}</code>
      </ScrollBox>
    </CodeSnippet>
  );
}

/**
 * A response's description, with the error codes it names (in parentheses, as lib/api/openapi.ts writes them) as code.
 */
/** Codes in a sentence, separated by commas. */
function CodeList({ codes }: { codes: { key: string; code: ReactNode }[] }) {
  return codes.map(({ key, code }, index) => (
    <span key={key}>
      {index > 0 && ", "}
      <code>{code}</code>
    </span>
  ));
}

/** Endpoints named in a sentence, as `POST /api/v1/send`. */
function Endpoints({ endpoints }: { endpoints: { path: string; method: string }[] }) {
  return (
    <CodeList
      codes={endpoints.map(({ path, method }) => ({
        key: `${method} ${path}`,
        code: (
          <>
            {method.toUpperCase()} {path}
          </>
        ),
      }))}
    />
  );
}

function Meaning({ response }: { response: Response }) {
  const codes = response["x-error-codes"] ?? [];
  return response.description.split(/\(([A-Z_]+)\)/).map((part, i) =>
    codes.includes(part) ? (
      <span key={i}>
        (<code>{part}</code>)
      </span>
    ) : (
      <span key={i}>{i % 2 === 1 ? `(${part})` : part}</span>
    ),
  );
}

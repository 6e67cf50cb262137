import createClient, { type Client } from "openapi-fetch";
import { LetterpressError } from "./errors.ts";
import type { operations, paths } from "./openapi.ts";
import type { RenderBody, SendBatchBody, SendBody, TemplateId } from "./templates.ts";
import { verifyWebhook } from "./webhooks.ts";

export const DEFAULT_BASE_URL = "http://localhost:3000/api/v1";

export type LetterpressOptions = {
  /** Else LETTERPRESS_API_KEY. */
  apiKey?: string;
  /** The API's root, with /api/v1; else LETTERPRESS_BASE_URL, else http://localhost:3000/api/v1. */
  baseUrl?: string;
  /** Makes every request (the global fetch by default). */
  fetch?: (request: Request) => Promise<Response>;
};

export type SendOptions = {
  /** Replays the first answer for 24 hours; by default one is made per call, which its retries share. */
  idempotencyKey?: string;
};

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Responses<K extends keyof operations> = operations[K]["responses"];

/** The body operation `K` answers on success. */
export type SuccessBody<K extends keyof operations> = Json<Responses<K>[Extract<keyof Responses<K>, 200 | 201 | 202>]>;
/** The JSON body operation `K` takes. */
export type RequestBody<K extends keyof operations> = Json<NonNullable<operations[K]["requestBody"]>>;
/** The query parameters operation `K` takes. */
export type Query<K extends keyof operations> = NonNullable<operations[K]["parameters"]["query"]>;

type Answer = { data?: unknown; error?: unknown; response: Response };

/** Retries of a send past its first attempt. */
const MAX_RETRIES = 3;
/** A Retry-After past this is a limit that will not lift soon (a monthly quota): thrown at once, not waited out. */
const MAX_WAIT_MS = 60_000;
/** The wait before retry `n` (from 0) when the answer names none: 0.5 s, 1 s, 2 s. */
const backoffMs = (retry: number) => 500 * 2 ** retry;

/** What a Retry-After asks for, in seconds or as an HTTP date. */
function retryAfterMs(header: string | null, retry: number): number {
  if (header === null || header.trim() === "") return backoffMs(retry);
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? backoffMs(retry) : Math.max(0, date - Date.now());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function environment(name: string): string | undefined {
  // Read where there is a process (Node, Bun, Deno): the client runs in browsers too.
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}

/** An answer's body, or the LetterpressError it stands for. */
async function answer<B>(call: Promise<Answer>): Promise<B> {
  let result: Answer;
  try {
    result = await call;
  } catch (cause) {
    throw LetterpressError.network(cause);
  }
  if (!result.response.ok) throw LetterpressError.fromResponse(result.response, result.error);
  return result.data as B;
}

/**
 * A send: retried on 429, 5xx and a failure to get an answer, after Retry-After (else a short backoff), at most
 * MAX_RETRIES times, every attempt under the same Idempotency-Key so that the API sends once.
 */
async function sendAnswer<B>(attempt: () => Promise<Answer>): Promise<B> {
  for (let retry = 0; ; retry++) {
    let result: Answer;
    try {
      result = await attempt();
    } catch (cause) {
      if (retry === MAX_RETRIES) throw LetterpressError.network(cause);
      await sleep(backoffMs(retry));
      continue;
    }
    const { response } = result;
    if (response.ok) return result.data as B;
    const retriable = retry < MAX_RETRIES && (response.status === 429 || response.status >= 500);
    const wait = retriable ? retryAfterMs(response.headers.get("Retry-After"), retry) : Infinity;
    if (wait > MAX_WAIT_MS) throw LetterpressError.fromResponse(response, result.error);
    await sleep(wait);
  }
}

/**
 * The Letterpress API: one method per operation, each answering the operation's success body and throwing a
 * LetterpressError otherwise. Sends and renders at the top (`send`, `sendBatch`, `render`), the rest by resource:
 * `library`, `catalogue`, `templates`, `components`, `emails`, `suppressions`, `usage`, `metrics`, `team`, `domains`,
 * `webhooks`, `auditLog`.
 */
export class Letterpress {
  /** Needs no API key: what a receiver of Letterpress's webhooks calls on each delivery. */
  static readonly webhooks = {
    /** Checks a delivery's signature with the endpoint's secret and answers its event; throws when it does not hold. */
    verify: verifyWebhook,
  };

  readonly #api: Client<paths>;

  constructor(options: LetterpressOptions = {}) {
    const apiKey = options.apiKey ?? environment("LETTERPRESS_API_KEY");
    if (!apiKey) throw new Error("Letterpress needs an API key: pass { apiKey } or set LETTERPRESS_API_KEY");
    this.#api = createClient<paths>({
      baseUrl: options.baseUrl ?? environment("LETTERPRESS_BASE_URL") ?? DEFAULT_BASE_URL,
      headers: { Authorization: `Bearer ${apiKey}` },
      ...(options.fetch && { fetch: options.fetch }),
    });
  }

  /** POST /send: sends an email rendered from a template of your library. */
  send(body: SendBody, options: SendOptions = {}): Promise<SuccessBody<"sendEmail">> {
    const header = { "Idempotency-Key": options.idempotencyKey ?? crypto.randomUUID() };
    return sendAnswer(() => this.#api.POST("/send", { params: { header }, body: body as RequestBody<"sendEmail"> }));
  }

  /** POST /send/batch: sends up to 100 emails, all checked before any is sent. */
  sendBatch(body: SendBatchBody, options: SendOptions = {}): Promise<SuccessBody<"sendBatch">> {
    const header = { "Idempotency-Key": options.idempotencyKey ?? crypto.randomUUID() };
    return sendAnswer(() =>
      this.#api.POST("/send/batch", { params: { header }, body: body as RequestBody<"sendBatch"> }),
    );
  }

  /** POST /templates/{id}/render: renders a template (by id, alias or slug) to HTML or React source. */
  render<T extends TemplateId>(
    id: T,
    ...[body]: Record<never, never> extends RenderBody<T> ? [body?: RenderBody<T>] : [body: RenderBody<T>]
  ): Promise<SuccessBody<"renderTemplate">> {
    const params = { path: { id } };
    return answer(this.#api.POST("/templates/{id}/render", { params, body: body as RequestBody<"renderTemplate"> }));
  }

  readonly library = {
    /** GET /library: a page of your library, newest addition first. */
    list: (query?: Query<"listLibrary">): Promise<SuccessBody<"listLibrary">> =>
      answer(this.#api.GET("/library", { params: { query } })),
    /** POST /library: adds a free catalogue template to your library. */
    add: (body: RequestBody<"addToLibrary">): Promise<SuccessBody<"addToLibrary">> =>
      answer(this.#api.POST("/library", { body })),
    /** DELETE /library/{id}: removes a catalogue template (by id or slug) from your library. */
    remove: (id: string): Promise<SuccessBody<"removeFromLibrary">> =>
      answer(this.#api.DELETE("/library/{id}", { params: { path: { id } } })),
  };

  readonly catalogue = {
    /** GET /catalogue: a page of the public catalogue. */
    list: (query?: Query<"listCatalogue">): Promise<SuccessBody<"listCatalogue">> =>
      answer(this.#api.GET("/catalogue", { params: { query } })),
  };

  readonly templates = {
    /** POST /templates: creates a template of your own from its TSX files. */
    create: (body: RequestBody<"createTemplate">): Promise<SuccessBody<"createTemplate">> =>
      answer(this.#api.POST("/templates", { body })),
    /** GET /templates/{id}: a template's details and its variables' JSON Schema. */
    get: (id: string): Promise<SuccessBody<"getTemplate">> =>
      answer(this.#api.GET("/templates/{id}", { params: { path: { id } } })),
    /** PUT /templates/{id}: replaces the files, name and description of a template you created. */
    replace: (id: string, body: RequestBody<"replaceTemplate">): Promise<SuccessBody<"replaceTemplate">> =>
      answer(this.#api.PUT("/templates/{id}", { params: { path: { id } }, body })),
    /** PATCH /templates/{id}: sets or clears (null) the alias of a template you created. */
    setAlias: (id: string, body: RequestBody<"setTemplateAlias">): Promise<SuccessBody<"setTemplateAlias">> =>
      answer(this.#api.PATCH("/templates/{id}", { params: { path: { id } }, body })),
    /** DELETE /templates/{id}: deletes a template you created. */
    delete: (id: string): Promise<SuccessBody<"deleteTemplate">> =>
      answer(this.#api.DELETE("/templates/{id}", { params: { path: { id } } })),
    /** GET /templates/{id}/source: the React Email source of a template of your library. */
    getSource: (id: string): Promise<SuccessBody<"getTemplateSource">> =>
      answer(this.#api.GET("/templates/{id}/source", { params: { path: { id } } })),
    /** POST /templates/{id}/publish: publishes the draft as the next version. */
    publish: (id: string, body?: RequestBody<"publishTemplate">): Promise<SuccessBody<"publishTemplate">> =>
      answer(this.#api.POST("/templates/{id}/publish", { params: { path: { id } }, body })),
    /** GET /templates/{id}/versions: the published versions, newest first, and the draft. */
    listVersions: (id: string, query?: Query<"listTemplateVersions">): Promise<SuccessBody<"listTemplateVersions">> =>
      answer(this.#api.GET("/templates/{id}/versions", { params: { path: { id }, query } })),
    /** GET /templates/{id}/versions/{n}: one version, with its files. */
    getVersion: (id: string, n: number): Promise<SuccessBody<"getTemplateVersion">> =>
      answer(this.#api.GET("/templates/{id}/versions/{n}", { params: { path: { id, n } } })),
    /** POST /templates/{id}/versions/{n}/restore: makes a version the draft again (or publishes it at once). */
    restoreVersion: (
      id: string,
      n: number,
      body?: RequestBody<"restoreTemplateVersion">,
    ): Promise<SuccessBody<"restoreTemplateVersion">> =>
      answer(this.#api.POST("/templates/{id}/versions/{n}/restore", { params: { path: { id, n } }, body })),
  };

  readonly emails = {
    /** GET /emails: a page of your emails, newest first. */
    list: (query?: Query<"listEmails">): Promise<SuccessBody<"listEmails">> =>
      answer(this.#api.GET("/emails", { params: { query } })),
    /** GET /emails/{id}: an email, its status and its delivery events. */
    get: (id: string): Promise<SuccessBody<"getEmail">> =>
      answer(this.#api.GET("/emails/{id}", { params: { path: { id } } })),
    /** POST /emails/{id}/cancel: cancels a scheduled email. */
    cancel: (id: string): Promise<SuccessBody<"cancelEmail">> =>
      answer(this.#api.POST("/emails/{id}/cancel", { params: { path: { id } } })),
  };

  readonly suppressions = {
    /** GET /suppressions: a page of the addresses you may not send to. */
    list: (query?: Query<"listSuppressions">): Promise<SuccessBody<"listSuppressions">> =>
      answer(this.#api.GET("/suppressions", { params: { query } })),
    /** DELETE /suppressions/{email}: lets you send to an address again. */
    delete: (email: string): Promise<SuccessBody<"deleteSuppression">> =>
      answer(this.#api.DELETE("/suppressions/{email}", { params: { path: { email } } })),
  };

  readonly components = {
    /** POST /components: adds a shared component your templates import as `@components/<name>`. */
    create: (body: RequestBody<"createComponent">): Promise<SuccessBody<"createComponent">> =>
      answer(this.#api.POST("/components", { body })),
    /** GET /components: your components by name, each with the templates that use it. */
    list: (): Promise<SuccessBody<"listComponents">> => answer(this.#api.GET("/components")),
    /** GET /components/{name}: a component at its current version. */
    get: (name: string): Promise<SuccessBody<"getComponent">> =>
      answer(this.#api.GET("/components/{name}", { params: { path: { name } } })),
    /** PUT /components/{name}: saves its next version. */
    update: (name: string, body: RequestBody<"updateComponent">): Promise<SuccessBody<"updateComponent">> =>
      answer(this.#api.PUT("/components/{name}", { params: { path: { name } }, body })),
    /** DELETE /components/{name}: deletes a component no template imports. */
    delete: (name: string): Promise<SuccessBody<"deleteComponent">> =>
      answer(this.#api.DELETE("/components/{name}", { params: { path: { name } } })),
  };

  readonly usage = {
    /** GET /usage: API calls and emails this month against your plan's limits. */
    get: (): Promise<SuccessBody<"getUsage">> => answer(this.#api.GET("/usage")),
  };

  readonly metrics = {
    /** GET /metrics: sends, deliveries, bounces, complaints, opens and clicks with their rates, by day, template, tag or domain. */
    get: (query?: Query<"getMetrics">): Promise<SuccessBody<"getMetrics">> =>
      answer(this.#api.GET("/metrics", { params: { query } })),
  };

  readonly team = {
    /** GET /team: your team, its members and pending invitations (members are managed in the dashboard only). */
    get: (): Promise<SuccessBody<"getTeam">> => answer(this.#api.GET("/team")),
  };

  readonly domains = {
    /** GET /domains: your sending domains, oldest first. */
    list: (): Promise<SuccessBody<"listDomains">> => answer(this.#api.GET("/domains")),
    /** POST /domains: adds a domain to send from; the answer lists the DNS records to publish. */
    create: (body: RequestBody<"createDomain">): Promise<SuccessBody<"createDomain">> =>
      answer(this.#api.POST("/domains", { body })),
    /** GET /domains/{id}: a domain with its DNS records and tracking switches. */
    get: (id: string): Promise<SuccessBody<"getDomain">> =>
      answer(this.#api.GET("/domains/{id}", { params: { path: { id } } })),
    /** POST /domains/{id}/verify: checks its DNS records again. */
    verify: (id: string): Promise<SuccessBody<"verifyDomain">> =>
      answer(this.#api.POST("/domains/{id}/verify", { params: { path: { id } } })),
    /** PATCH /domains/{id}: open and click tracking, the default sender. */
    update: (id: string, body: RequestBody<"updateDomain">): Promise<SuccessBody<"updateDomain">> =>
      answer(this.#api.PATCH("/domains/{id}", { params: { path: { id } }, body })),
    /** DELETE /domains/{id}: removes a domain. */
    delete: (id: string): Promise<SuccessBody<"deleteDomain">> =>
      answer(this.#api.DELETE("/domains/{id}", { params: { path: { id } } })),
  };

  readonly webhooks = {
    /** POST /webhooks: adds an endpoint; its signing secret is in this answer only. */
    create: (body: RequestBody<"createWebhook">): Promise<SuccessBody<"createWebhook">> =>
      answer(this.#api.POST("/webhooks", { body })),
    /** GET /webhooks: your endpoints, oldest first. */
    list: (): Promise<SuccessBody<"listWebhooks">> => answer(this.#api.GET("/webhooks")),
    /** GET /webhooks/{id}: one of your endpoints. */
    get: (id: string): Promise<SuccessBody<"getWebhook">> =>
      answer(this.#api.GET("/webhooks/{id}", { params: { path: { id } } })),
    /** PATCH /webhooks/{id}: changes its url, events or description, or disables and enables it. */
    update: (id: string, body: RequestBody<"updateWebhook">): Promise<SuccessBody<"updateWebhook">> =>
      answer(this.#api.PATCH("/webhooks/{id}", { params: { path: { id } }, body })),
    /** DELETE /webhooks/{id}: deletes an endpoint and its delivery log. */
    delete: (id: string): Promise<SuccessBody<"deleteWebhook">> =>
      answer(this.#api.DELETE("/webhooks/{id}", { params: { path: { id } } })),
    /** GET /webhooks/{id}/deliveries: a page of its deliveries, newest first. */
    listDeliveries: (
      id: string,
      query?: Query<"listWebhookDeliveries">,
    ): Promise<SuccessBody<"listWebhookDeliveries">> =>
      answer(this.#api.GET("/webhooks/{id}/deliveries", { params: { path: { id }, query } })),
    /** POST /webhooks/{id}/deliveries/{delivery_id}/replay: delivers the same event again (same webhook-id), at once. */
    replay: (id: string, deliveryId: string): Promise<SuccessBody<"replayWebhookDelivery">> =>
      answer(
        this.#api.POST("/webhooks/{id}/deliveries/{delivery_id}/replay", {
          params: { path: { id, delivery_id: deliveryId } },
        }),
      ),
    /** POST /webhooks/{id}/test: sends a webhook.test event once, now, and answers what came of it. */
    test: (id: string): Promise<SuccessBody<"testWebhook">> =>
      answer(this.#api.POST("/webhooks/{id}/test", { params: { path: { id } } })),
    /** POST /webhooks/{id}/rotate-secret: a new secret (in this answer only); the old one signs too for 24 hours. */
    rotateSecret: (id: string): Promise<SuccessBody<"rotateWebhookSecret">> =>
      answer(this.#api.POST("/webhooks/{id}/rotate-secret", { params: { path: { id } } })),
  };

  readonly auditLog = {
    /** GET /audit-log: a page of who changed what in your team, newest first (of one action, when given). */
    list: (query?: Query<"listAuditLog">): Promise<SuccessBody<"listAuditLog">> =>
      answer(this.#api.GET("/audit-log", { params: { query } })),
  };
}

// The service's limits: every bound on what one request may ask, in one place. The code that enforces each imports it
// from here, and the README's "Limits" table and the OpenAPI document are both made from LIMITS below, so the three
// cannot disagree (tests/core/limits.test.ts compares the README's table with limitsTable()).

const KB = 1024;
const MB = 1024 * KB;

/** Request bodies: the contract's 10 MB, checked by Content-Length and again while reading. */
export const MAX_BODY_BYTES = 10 * MB;
/** Deep enough for any template's variables; deeper bodies would exhaust the stack of the code that walks them. */
export const MAX_JSON_DEPTH = 32;
/*
 * What one body's JSON may hold, per shape, so that parsing and checking the largest accepted body holds the event
 * loop for tens of milliseconds, not seconds: counted in the text before it is parsed (lib/api/json-body.ts). Measured
 * in docs/performance.md ("JSON bodies"): JSON.parse and the passes after it take about 3 µs per object key (700,000
 * keys: 2.3 s) and at most 0.5 µs per other value, on Node 20.
 */
/** Values (objects, arrays, strings, numbers, booleans, nulls): a batch of 100 emails of 1,000 values each. */
export const MAX_JSON_VALUES = 100_000;
/** Object keys, in all the body's objects: a template's variables name tens of them, a batch of 100 emails thousands. */
export const MAX_JSON_KEYS = 20_000;
/** One key: a variable's name, a header's, a file's path (MAX_TEMPLATE_PATH_CHARS). */
export const MAX_JSON_KEY_CHARS = 256;
/** One number as written: a double needs at most 24 characters (`-1.2345678901234567e-308`). */
export const MAX_JSON_NUMBER_CHARS = 100;
/** A request's `variables`, as the UTF-8 bytes of its JSON. */
export const MAX_VARIABLES_BYTES = MB;

/** One address in from, to, cc, bcc or reply_to (64 for the local part, @, 255 for the domain). */
export const MAX_ADDRESS_LENGTH = 320;
/** Recipients across to, cc and bcc; one list alone is refused past it before its addresses are read. */
export const MAX_RECIPIENTS = 50;
export const MAX_REPLY_TO = 50;
/** Decoded attachments of one email, in all. */
export const MAX_ATTACHMENT_BYTES = 10 * MB;
export const MAX_ATTACHMENTS = 50;
/**
 * The DNS lookup of an attachment `path`'s host, which must resolve to public addresses only
 * (lib/sending/attachment-hosts.ts).
 */
export const ATTACHMENT_HOST_LOOKUP_MS = 2000;
/** Resend takes a few tags per email; a longer list is refused before its tags are read. */
export const MAX_TAGS = 50;
/** Emails in one POST /send/batch (as Resend's batch endpoint). */
export const MAX_BATCH_EMAILS = 100;
/** The HTML and text a batch's templates render, in all: a batch is held in memory and recorded in one statement. */
export const MAX_BATCH_RENDERED_BYTES = 10 * MB;
/**
 * The time a batch's renders of the account's own templates may take on the sandbox's workers, in all. A batch of 100
 * emails of a few templates takes about a second (a template's first render on a worker about 150 ms, each after it a
 * few ms); a batch of slow templates stops at five renders' deadlines rather than holding the sandbox for up to 100 of
 * them on one API call. Catalogue templates (ours, a fraction of a millisecond each) do not count.
 */
export const BATCH_RENDER_BUDGET_MS = 5000;
export const MAX_HEADERS = 50;

/** One render, of a catalogue template or of a user's template in the sandbox. */
export const RENDER_DEADLINE_MS = 1000;
export const MAX_HTML_BYTES = 5 * MB;
/** Gmail clips a message whose HTML passes 102 KB: a render past it still answers, with a warning. */
export const GMAIL_CLIP_BYTES = 102 * KB;
/**
 * The email client check of a rendered document (lib/render/analysis/compatibility.ts), on the render worker after the
 * render: the distinct elements, style declarations (of style attributes: per element, and in all) and characters of
 * `<style>` rules it reads, past which the rest is not checked (an element past the declarations is checked without its
 * style), and the time it may take, past which it is skipped and the render answers with a warning: `deadlineMs` of its
 * thread's CPU time (where Linux tells it), at most `wallClockMs` of wall-clock time however busy the machine. A
 * catalogue template's document has about 40 distinct elements and 130 declarations, checked in 20 to 130 ms of CPU
 * time here; a document at the bounds, in 150 to 300 ms.
 */
export const COMPATIBILITY_CHECK = {
  elements: 300,
  declarationsPerElement: 100,
  declarations: 1000,
  cssChars: 8000,
  deadlineMs: 400,
  wallClockMs: 750,
} as const;
/** Memory of the WebAssembly sandbox that renders one user template. */
export const SANDBOX_MEMORY_BYTES = 64 * MB;
/**
 * A user template's source, and the time its parse or compile may take off the event loop. The cap leaves a source
 * at it well within the deadline on a busy machine (the v1.1 contract caps a template's files at 500 KB in all).
 */
export const MAX_TEMPLATE_SOURCE_CHARS = 500_000;
export const COMPILE_DEADLINE_MS = 1000;
/**
 * Functions nested in one another's parameter defaults (`(a = (b = () => 1) => 1) => 1`): sucrase's parse time
 * doubles with each level past about 16 (a second at 20), so deeper ones are refused before it runs.
 */
export const MAX_PARAMETER_NESTING = 12;
/** Files of one template (their source together within MAX_TEMPLATE_SOURCE_CHARS), and a file's relative path. */
export const MAX_TEMPLATE_FILES = 20;
export const MAX_TEMPLATE_PATH_CHARS = 200;
/**
 * A template's messages (`messages/<tag>.json`), apart from its code files and their characters: locales, the UTF-8
 * size of one file, and how deep its objects nest (the file itself is depth 1).
 */
export const MAX_TEMPLATE_LOCALES = 50;
export const MAX_MESSAGES_FILE_BYTES = 100 * KB;
export const MAX_MESSAGES_DEPTH = 8;
/**
 * One ICU message's shape, so that formatting it stays cheap whatever its text: plural, select and selectordinal
 * nested at most MAX_MESSAGE_NESTING deep, and at most MAX_MESSAGE_ELEMENTS elements (text, arguments, tags, the
 * options of plural and select, counted wherever they nest). A message at these bounds formats in microseconds; one
 * built to explode (plurals nested in plurals, a select of thousands of cases) is refused at save.
 */
export const MAX_MESSAGE_NESTING = 4;
export const MAX_MESSAGE_ELEMENTS = 500;
/**
 * What a template's messages come to once each locale is merged with its fallbacks (what its code imports): as much
 * as 50 complete locales of 100 KB, so that fallbacks never make more than the largest messages a template may hold.
 */
export const MAX_MERGED_MESSAGES_CHARS = MAX_TEMPLATE_LOCALES * MAX_MESSAGES_FILE_BYTES;
/** A locale's `subject` message (ICU source; what it formats to is a subject line, at most 998 characters). */
export const MAX_SUBJECT_MESSAGE_CHARS = 2000;
/** The save's missing-key warnings named per locale; past them, one more warning says how many more it lacks. */
export const MAX_MISSING_KEY_WARNINGS = 20;
/** A render's or send's `locale`, and a template's `default_locale`: a BCP 47 tag, longer than any in use. */
export const MAX_LOCALE_CHARS = 64;
/** A user template's name and description, as POST and PUT /templates take them. */
export const MAX_TEMPLATE_NAME_CHARS = 200;
export const MAX_TEMPLATE_DESCRIPTION_CHARS = 2000;
/** A user template's alias (POST, PUT and PATCH /templates). */
export const MAX_TEMPLATE_ALIAS_CHARS = 64;
/** GET /catalogue's `category` filter. */
export const MAX_CATALOGUE_CATEGORY_CHARS = 100;
/** Sending domains of one account (POST /domains, the dashboard's form, the CLI), counted with the account locked. */
export const MAX_SENDING_DOMAINS = 50;
/** The days one GET /metrics counts (from and to both counted). */
export const MAX_METRICS_DAYS = 366;
/** The entries of one GET /metrics by template, tag or domain: the most sent (a tag per recipient makes millions). */
export const MAX_METRICS_KEYS = 100;
/** The deltas one fold of the metrics folds (the dispatch step's, which repeats while a fold is full). */
export const METRICS_FOLD_BATCH = 20_000;
/** An unsubscribe group's name (a send's `unsubscribe.group`). */
export const MAX_UNSUBSCRIBE_GROUP_LENGTH = 64;
/**
 * First one-click unsubscribes (POST /u/<token>) of one address from one group of an account, in a window (a mail
 * client retries); a repeat of one done counts for nothing.
 */
export const UNSUBSCRIBE_LIMITS = { perAddress: 10, windowSeconds: 3600 } as const;
/** Webhook endpoints of one account (POST /webhooks), counted in SQL (create_webhook_endpoint). */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** Shared components an account keeps (each with the file caps of a template's source). */
export const MAX_COMPONENTS = 100;
/**
 * Templates one component update checks and republishes (each compiled and trial-rendered, one after another, within
 * the request): past them the update is refused, and nothing changes.
 */
export const MAX_COMPONENT_DEPENDENTS = 50;
/** Characters of source a template and the shared components it imports (and theirs) hold in all. */
export const MAX_LINKED_SOURCE_CHARS = 1_000_000;
/** A webhook endpoint's `description`. */
export const MAX_WEBHOOK_DESCRIPTION_CHARS = 200;
/** After a rotation, deliveries are signed with the old secret too for this long, so receivers can switch. */
export const WEBHOOK_PREVIOUS_SECRET_HOURS = 24;
/**
 * Jobs a worker pool holds at once (waiting or running), in all and of one account. Past an account's cap its new work
 * is refused at once. Past the cap in all, an account still gets in while it holds less than its fair share (the cap ÷
 * the accounts with work held), so a few accounts cannot shut the others out, up to QUEUE_CEILING_FACTOR × the cap in
 * all, where everyone's new work is refused (lib/render/workers/queue-admission.ts).
 *
 * The sandbox's renders of users' templates: an ordinary render takes milliseconds, so a full queue means renders that
 * run to their deadline.
 */
export const SANDBOX_QUEUE = { total: 96, perAccount: 32 } as const;
/** Compiles and parses of users' template source: each job waiting holds its source, up to MAX_TEMPLATE_SOURCE_CHARS. */
export const COMPILE_QUEUE = { total: 32, perAccount: 8 } as const;
/**
 * Renders of catalogue templates: each takes a fraction of a millisecond and holds variables its template bounds, so
 * an account sending in bursts (a backend with many workers) may hold many before it is turned away.
 */
export const CATALOGUE_QUEUE = { total: 512, perAccount: 128 } as const;
export const QUEUE_CEILING_FACTOR = 2;

/**
 * Renders the dashboard makes for a person (the editor's live preview, card thumbnails, a template's page, a save's
 * compile and trial render) per minute, per account and per client address; none once the month's API calls are used
 * up (lib/dashboard/preview.ts). The editor previews once per pause in typing; a library page asks for one
 * thumbnail per card (up to 100), the catalogue for 10, and a thumbnail already seen is answered from the browser's
 * cache or with a 304 that renders and counts nothing. So a person never reaches the account's limit, and the
 * address's leaves room for a few people behind one address.
 */
export const PREVIEW_LIMITS = { windowSeconds: 60, perAccount: 200, perAddress: 600 } as const;
/**
 * Failed sign-ins in a window, for any address typed in (registered or not). Refused past `failuresPerAccountAndAddress`
 * of one account from one client address, and past `failuresPerAddress` from one address whatever the accounts. Past
 * `failuresPerAccount` of one account from every address, each sign-in to it waits `slowdownSeconds` before its password
 * is checked, and none is refused for them: failures from other addresses never lock the owner out.
 */
export const SIGN_IN_LIMITS = {
  failuresPerAccountAndAddress: 10,
  failuresPerAddress: 50,
  failuresPerAccount: 10,
  slowdownSeconds: 2,
  windowMinutes: 15,
} as const;
/** Sign-up requests in a window, each of which mails the address: per address typed in, and per client address. */
export const SIGN_UP_LIMITS = { perAccount: 10, perAddress: 50, windowMinutes: 15 } as const;
/** How far ahead a send may be scheduled (`scheduled_at`). */
export const MAX_SCHEDULE_DAYS = 30;
/** The longest plain-text part (`text`) accepted: 1 MiB of characters. */
export const MAX_TEXT_LENGTH = 1024 * 1024;
/** RFC 5322's line length: the longest subject or header value accepted. */
export const MAX_HEADER_LINE_LENGTH = 998;
/** An attachment's `path` (its URL). */
export const MAX_ATTACHMENT_URL_LENGTH = 2048;
/** The Idempotency-Key header of POST /send. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;
/** An email id in a path: provider message ids are short; anything longer cannot be one. */
export const MAX_EMAIL_ID_LENGTH = 256;
/** The largest version or revision a request may name: PostgreSQL's integer. */
export const MAX_VERSION_NUMBER = 2_147_483_647;
/** The sign-up and sign-in forms' password. */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 200;
/** The `next` path a sign-in returns to. */
export const MAX_NEXT_PATH_LENGTH = 2048;
/**
 * A provider's webhook delivery. Providers' events are a few kilobytes (Stripe's largest, with expanded lists, stay well
 * below this). The body is read before its signature can be checked, so anyone can send one: a larger body is refused
 * with 413 before it is buffered.
 */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;
/**
 * One delivery of an account's webhook (lib/webhooks/outbound.ts): a 2xx answer within WEBHOOK_TIMEOUT_MS (looking
 * up, connecting and the answer's status all count) is a success; of the answer's body at most
 * WEBHOOK_MAX_RESPONSE_BYTES are read and the first WEBHOOK_RESPONSE_EXCERPT_BYTES kept for the delivery log.
 */
export const WEBHOOK_TIMEOUT_MS = 15_000;
export const WEBHOOK_MAX_RESPONSE_BYTES = 64 * KB;
export const WEBHOOK_RESPONSE_EXCERPT_BYTES = 4 * KB;
/** A webhook endpoint's `url`, and the lookup at its creation or change that its host resolves to public addresses only. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const WEBHOOK_HOST_LOOKUP_MS = 2000;
/** How long a send waits for an identical one (same Idempotency-Key and body) still running, before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 15_000;
/**
 * Webhook attempts one process makes at once (lib/webhooks/delivery.ts): a hanging endpoint holds one of these for
 * its whole timeout, so they are many, and cheap (sockets, not threads).
 */
export const WEBHOOK_ATTEMPTS_IN_FLIGHT = 32;
/**
 * Webhook attempts of one account in flight at once, across every process (claim_webhook_deliveries counts the
 * leases running): an account's hanging endpoint holds no more than these, and other accounts' deliveries go on.
 */
export const WEBHOOK_ATTEMPTS_PER_ACCOUNT = 4;
/**
 * How long a claimed webhook attempt is its process's: past it another process makes it again (a process killed in the
 * middle of one). Well above the attempt's own deadline (WEBHOOK_TIMEOUT_MS, 15 s), so a live attempt is never made
 * twice at once.
 */
export const WEBHOOK_LEASE_SECONDS = 60;
/**
 * How long a connection to a webhook endpoint is kept open after an attempt, for the same account's next attempt to
 * the same origin (lib/webhooks/outbound.ts): a burst's attempts share connections (and TLS handshakes) instead of
 * opening one each, and an idle account holds none for long.
 */
export const WEBHOOK_IDLE_CONNECTION_MS = 5000;
/** Webhook events (with their deliveries) past their 30 days, deleted at most per run of the retention duty. */
export const WEBHOOK_RETENTION_BATCH = 5000;

const count = (n: number) => n.toLocaleString("en-US");
const megabytes = (bytes: number) => `${bytes / MB} MB`;
const queueLimit = ({ total, perAccount }: { total: number; perAccount: number }) =>
  `${perAccount} per account; ${total} in all, then up to ${total * QUEUE_CEILING_FACTOR} from accounts holding less than their share`;
const busy = "503 `SANDBOX_BUSY` with `Retry-After`";

/** What is limited, the limit, and the answer past it. */
export const LIMITS: readonly { what: string; limit: string; answer: string }[] = [
  { what: "Request body", limit: megabytes(MAX_BODY_BYTES), answer: "413 `PAYLOAD_TOO_LARGE`" },
  { what: "JSON in a body: nesting", limit: `${MAX_JSON_DEPTH} levels`, answer: "400, field of the value" },
  {
    what: "JSON in a body: values (objects, arrays, strings, numbers, booleans, nulls)",
    limit: count(MAX_JSON_VALUES),
    answer: "400, field `body`",
  },
  { what: "JSON in a body: object keys, in all its objects", limit: count(MAX_JSON_KEYS), answer: "400, field `body`" },
  {
    what: "JSON in a body: one object key",
    limit: `${MAX_JSON_KEY_CHARS} characters`,
    answer: "400, field of the object",
  },
  {
    what: "JSON in a body: one number",
    limit: `${MAX_JSON_NUMBER_CHARS} characters as written`,
    answer: "400, field `body`",
  },
  { what: "`variables`", limit: `${megabytes(MAX_VARIABLES_BYTES)} as JSON (UTF-8)`, answer: "400, field `variables`" },
  {
    what: "Each address in `from`, `to`, `cc`, `bcc`, `reply_to`",
    limit: `${MAX_ADDRESS_LENGTH} characters`,
    answer: "400, field of the address",
  },
  {
    what: "Recipients of one email",
    limit: `${MAX_RECIPIENTS} across \`to\`, \`cc\`, \`bcc\``,
    answer: "400, field `to` (or the one list holding more on its own)",
  },
  { what: "Addresses in `reply_to`", limit: count(MAX_REPLY_TO), answer: "400, field `reply_to`" },
  {
    what: "Attachments of one email",
    limit: `${MAX_ATTACHMENTS} files, ${megabytes(MAX_ATTACHMENT_BYTES)} decoded in all`,
    answer: "400, field `attachments`",
  },
  {
    what: "Looking up the host of an attachment's `path` (it must be public)",
    limit: `${ATTACHMENT_HOST_LOOKUP_MS / 1000} s`,
    answer: "400, field `attachments.<i>.path`",
  },
  { what: "Tags of one email", limit: count(MAX_TAGS), answer: "400, field `tags`" },
  { what: "`headers` of one email", limit: count(MAX_HEADERS), answer: "400, field `headers`" },
  { what: "Emails in one batch", limit: count(MAX_BATCH_EMAILS), answer: "400, field `emails`" },
  {
    what: "Rendered HTML and text of one batch",
    limit: `${megabytes(MAX_BATCH_RENDERED_BYTES)} in all`,
    answer: "422 `BATCH_TOO_LARGE`",
  },
  {
    what: "Render time of your own templates in one batch",
    limit: `${BATCH_RENDER_BUDGET_MS / 1000} s in all`,
    answer: "422 `BATCH_TOO_LARGE`",
  },
  { what: "Rendered HTML", limit: megabytes(MAX_HTML_BYTES), answer: "422 `RENDER_ERROR`" },
  {
    what: "Rendered HTML Gmail shows whole",
    limit: `${(GMAIL_CLIP_BYTES / KB).toLocaleString("en-US")} KB`,
    answer: "200 with a `warnings` entry for `html`",
  },
  { what: "Render time", limit: `${RENDER_DEADLINE_MS / 1000} s per render`, answer: "422 `RENDER_ERROR`" },
  {
    what: "Email client check of a render",
    limit: `the first ${count(COMPATIBILITY_CHECK.elements)} distinct elements, ${count(COMPATIBILITY_CHECK.declarationsPerElement)} style declarations per element and ${count(COMPATIBILITY_CHECK.declarations)} in all, ${count(COMPATIBILITY_CHECK.cssChars)} characters of \`<style>\` rules; ${COMPATIBILITY_CHECK.deadlineMs} ms of CPU time`,
    answer:
      "the rest is not checked; past the time, 200 with a `warnings` entry for `html` saying the check was skipped",
  },
  {
    what: "Memory of a render of your own template",
    limit: megabytes(SANDBOX_MEMORY_BYTES),
    answer: "422 `RENDER_ERROR`",
  },
  {
    what: "Your template's source",
    limit: `${MAX_TEMPLATE_FILES} files, ${count(MAX_TEMPLATE_SOURCE_CHARS)} characters in all, functions in parameter defaults ${MAX_PARAMETER_NESTING} deep, compiled within ${COMPILE_DEADLINE_MS / 1000} s of CPU time`,
    answer: '400, field `files` (422 `RENDER_ERROR` for `format: "react"`)',
  },
  {
    what: "Your template's messages (`messages/<tag>.json`)",
    limit: `${MAX_TEMPLATE_LOCALES} locales, ${MAX_MESSAGES_FILE_BYTES / KB} KB (UTF-8) each, objects ${MAX_MESSAGES_DEPTH} deep; a message's plural and select ${MAX_MESSAGE_NESTING} deep, ${count(MAX_MESSAGE_ELEMENTS)} elements; a \`subject\` message ${count(MAX_SUBJECT_MESSAGE_CHARS)} characters; ${count(MAX_MERGED_MESSAGES_CHARS)} characters of JSON in all once each locale has its fallbacks merged in`,
    answer: `400, field \`files.messages/<tag>.json\` (\`files\` for the merged size); a save's warnings name ${MAX_MISSING_KEY_WARNINGS} missing keys per locale, then how many more`,
  },
  {
    what: "Renders of your own templates waiting",
    limit: queueLimit(SANDBOX_QUEUE),
    answer: busy,
  },
  {
    what: "Compiles of your templates' source waiting",
    limit: queueLimit(COMPILE_QUEUE),
    answer: busy,
  },
  {
    what: "Renders of catalogue templates waiting",
    limit: queueLimit(CATALOGUE_QUEUE),
    answer: busy,
  },
  {
    what: "Dashboard previews, thumbnails and saves in the editor",
    limit: `${PREVIEW_LIMITS.perAccount} a minute per account, ${PREVIEW_LIMITS.perAddress} per network address; none once the month's API calls are used up`,
    answer: "429 with `Retry-After`",
  },
  {
    what: "Shared components",
    limit: `${MAX_COMPONENTS} per account, each with the source limits of a template, and ${count(MAX_LINKED_SOURCE_CHARS)} characters of source in all for a template and the components it imports; an update checks and republishes at most ${MAX_COMPONENT_DEPENDENTS} templates that import it`,
    answer: "403 `COMPONENT_LIMIT_REACHED`; 400, field `files`; 422 `TOO_MANY_DEPENDENTS`",
  },
  {
    what: "Sending domains",
    limit: `${MAX_SENDING_DOMAINS} per account`,
    answer: "403 `DOMAIN_LIMIT_REACHED`",
  },
  {
    what: "Metrics",
    limit: `at most ${MAX_METRICS_DAYS} days a request (GET /metrics); by template, tag or domain the ${MAX_METRICS_KEYS} most sent`,
    answer: "400, field `to`",
  },
  {
    what: "One-click unsubscribes",
    limit: `${UNSUBSCRIBE_LIMITS.perAddress} an hour per address and group of an account (POST /u/<token>)`,
    answer: "429 page, `Retry-After`",
  },
  {
    what: "Webhook endpoints",
    limit: `${MAX_WEBHOOK_ENDPOINTS} per account; a URL of at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString("en-US")} characters`,
    answer: "403 `WEBHOOK_LIMIT_REACHED`; 400, field `url`",
  },
  {
    what: "A webhook delivery",
    limit: `a 2xx within ${WEBHOOK_TIMEOUT_MS / 1000} s, of which ${WEBHOOK_MAX_RESPONSE_BYTES / KB} KB are read; ${WEBHOOK_ATTEMPTS_PER_ACCOUNT} of an account's attempts at once, and as many of its test events`,
    answer:
      "retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then `failed`; an endpoint failing for 5 days is disabled; one test event more: 429 `TOO_MANY_ATTEMPTS`",
  },
  {
    what: "Failed sign-ins",
    limit: `${SIGN_IN_LIMITS.failuresPerAccountAndAddress} of one account from one network address, ${SIGN_IN_LIMITS.failuresPerAddress} from one network address, in ${SIGN_IN_LIMITS.windowMinutes} minutes; past ${SIGN_IN_LIMITS.failuresPerAccount} of one account from all addresses, each sign-in to it waits ${SIGN_IN_LIMITS.slowdownSeconds} s first`,
    answer: "refused from that network address until the window ends (the wait refuses none)",
  },
];

/** LIMITS as a Markdown table: the README's "Limits" section and the OpenAPI document's description. */
export function limitsTable(): string {
  return [
    "| What | Limit | Past it |",
    "|---|---|---|",
    ...LIMITS.map(({ what, limit, answer }) => `| ${what} | ${limit} | ${answer} |`),
  ].join("\n");
}

import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { render, toPlainText as reactEmailToPlainText } from "@react-email/render";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { httpError } from "@/lib/api/errors";
import { AppError } from "@/lib/core/errors";
import { catalogue, getCatalogueEntry } from "@/lib/catalogue/catalogue";
import { getDb } from "@/lib/db/client";
import { CATALOGUE_QUEUE } from "@/lib/core/limits";
import {
  renderCatalogueJsonOffThread,
  renderCatalogueOffThread,
  stopCatalogueWorkers,
} from "@/lib/render/workers/catalogue-pool";
import { toPlainText as toPlainTextOnce } from "@/lib/render/react-email/plain-text";
import { applyVariablesToSource } from "@/lib/render/react-email/react-source";
import { importTsx } from "../support/tsx";
import { addToLibrary, auth, call, catalogueId, createUser, type TestUser } from "../support/api";

/** The account the pool's direct renders are for. */
const OWNER = "render-test";
const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };

function renderCall(user: TestUser, id: string, body: unknown = {}) {
  return call(postRender, `/api/v1/templates/${id}/render`, {
    method: "POST",
    params: { id },
    headers: auth(user),
    body,
  });
}

describe("who may render what", () => {
  it("a template in the library renders", async () => {
    const user = await createUser();
    const { template_id } = await addToLibrary(user, "welcome");
    const result = await renderCall(user, template_id);
    expect(result.status).toBe(200);
    // A catalogue template's email client support is on its page, not in its renders.
    expect(result.body).toEqual({ success: true, locale: "en", html: result.body.html });
  });

  it("a public free catalogue template renders without being in the library", async () => {
    const user = await createUser();
    const result = await renderCall(user, await catalogueId("password-reset"), {
      variables: { resetUrl: "https://acme.test/reset?t=1" },
    });
    expect(result.status).toBe(200);
    expect(result.body.html).toContain("https://acme.test/reset?t=1");
  });

  it("a public paid template not purchased answers the exact 403", async () => {
    const user = await createUser();
    const id = await catalogueId("receipt");
    const result = await renderCall(user, id);
    expect(result.status).toBe(403);
    expect(result.body).toEqual({
      error: "Template access denied",
      code: "ACCESS_DENIED",
      success: false,
      message: '"Order receipt" is a paid template. Purchase it to add it to your library, then render it.',
      template: { id, title: "Order receipt", price: "19.00" },
    });
  });

  it("a purchased paid template renders", async () => {
    const user = await createUser();
    const { template_id } = await addToLibrary(user, "receipt");
    const result = await renderCall(user, template_id, {
      variables: { orderId: "A-1", items: [{ name: "Mug", quantity: 2, unitPrice: 9.5 }] },
    });
    expect(result.status).toBe(200);
    expect(result.body.html).toContain("A-1");
    expect(result.body.html).toContain("Mug");
  });

  it.each([
    [
      "another user's private template",
      async () => {
        const other = await createUser();
        const [row] = await getDb()<{ id: string }[]>`
        insert into templates (owner_account_id, name, code) values (${other.accountId}, 'Private', 'x') returning id`;
        return row.id;
      },
    ],
    [
      "an unpublished catalogue template",
      async () => {
        const [row] = await getDb()<
          { id: string }[]
        >`insert into templates (name, code, is_public) values ('Draft', 'x', false) returning id`;
        return row.id;
      },
    ],
    ["an unknown uuid", async () => "0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f"],
    ["an id that is not a uuid", async () => "welcome"],
  ])("%s answers 404", async (_, id) => {
    const user = await createUser();
    const result = await renderCall(user, await id());
    expect(result.status).toBe(404);
    expect(result.body).toEqual(TEMPLATE_NOT_FOUND);
  });

  it("suggests the name an unknown alias was a slip of", async () => {
    const user = await createUser();
    await addToLibrary(user, "welcome");
    expect((await renderCall(user, "welcom")).body).toEqual({
      ...TEMPLATE_NOT_FOUND,
      message: "Did you mean welcome?",
    });
    expect((await renderCall(user, "nothing-like-it")).body).toEqual(TEMPLATE_NOT_FOUND);
  });

  it("is metered like the other metered endpoints", async () => {
    const user = await createUser();
    const result = await renderCall(user, await catalogueId("welcome"));
    expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
  });
});

describe("catalogue rendering", () => {
  it("gives exactly what render() gives for the same props", async () => {
    const user = await createUser();
    const variables = { loginUrl: "https://acme.test/login?token=abc", productName: "Acme", expiresInMinutes: 10 };
    const result = await renderCall(user, await catalogueId("magic-link"), { variables });
    const entry = getCatalogueEntry("magic-link")!;
    const expected = await render(createElement(await entry.loadComponent(), entry.variables.parse(variables)));
    expect(result.body).toEqual({ success: true, html: expected });
    expect(result.body.html.startsWith("<!DOCTYPE html")).toBe(true);
    expect(result.headers.get("content-type")).toBe("application/json");
    expect(result.headers.get("x-ratelimit-limit")).toBe("500");
  });

  it("renders every catalogue template to exactly what render() gives, also with hostile and empty values", async () => {
    // Every string variable that is not a link gets markup, an entity, a line separator and non-ASCII text.
    const hostile = (schema: (typeof catalogue)[number]["variables"]) => {
      const json = schema.toJSONSchema({ io: "input", unrepresentable: "any" }) as {
        properties?: Record<string, { type?: string }>;
      };
      const values = sampleVariables(schema);
      for (const [name, property] of Object.entries(json.properties ?? {})) {
        if (property.type === "string" && !/url/i.test(name))
          values[name] = `</p><script>alert("${name}")</script>&amp; \u2028 é 😀`;
      }
      return values;
    };
    for (const entry of catalogue) {
      const component = await entry.loadComponent();
      const previewProps = (component as { PreviewProps?: Record<string, unknown> }).PreviewProps ?? {};
      for (const variables of [sampleVariables(entry.variables), hostile(entry.variables), previewProps]) {
        const props = entry.variables.parse(variables);
        const element = createElement(component, props);
        const expected = await render(element);
        // The render worker's own bundle of emails/, React and html-to-text gives the same bytes.
        expect(await renderCatalogueOffThread(OWNER, entry.slug, props, true), entry.slug).toEqual({
          html: expected,
          text: reactEmailToPlainText(expected),
        });
        // And the JSON it writes for the API is what serializing those strings on the event loop would give.
        const json = new TextDecoder().decode(
          await renderCatalogueJsonOffThread(OWNER, entry.slug, props, true, { success: true }),
        );
        expect(json, entry.slug).toBe(
          JSON.stringify({
            success: true,
            html: expected,
            text: reactEmailToPlainText(expected),
          }),
        );
      }
    }
  });

  it("fails the renders in flight or waiting when the render workers stop, and starts a new one for the next", async () => {
    const props = getCatalogueEntry("welcome")!.variables.parse({ userName: "Ada" });
    await renderCatalogueOffThread(OWNER, "welcome", props, false);
    const inFlight = Array.from({ length: 20 }, () =>
      renderCatalogueOffThread(OWNER, "welcome", props, false).then(
        () => "rendered",
        (e: Error) => e.message,
      ),
    );
    await stopCatalogueWorkers();
    const outcomes = await Promise.all(inFlight);
    // Renders that finished before the worker stopped are fine; the rest fail with the reason, none hangs.
    for (const outcome of outcomes) expect(outcome).toMatch(/^(rendered|The catalogue render workers were stopped)$/);
    expect(outcomes).toContain("The catalogue render workers were stopped");
    expect(await renderCatalogueOffThread(OWNER, "welcome", props, false)).toEqual({
      html: await render(createElement(await getCatalogueEntry("welcome")!.loadComponent(), props)),
    });
  });

  it("refuses renders past an account's cap, and at the cap in all past its fair share (503 SANDBOX_BUSY), and drops one whose request is aborted while it waits", async () => {
    const props = getCatalogueEntry("welcome")!.variables.parse({ userName: "Ada" });
    const expected = {
      rendered: { html: await render(createElement(await getCatalogueEntry("welcome")!.loadComponent(), props)) },
    };
    const busy = (message: string) => ({
      status: 503,
      headers: { "Retry-After": "1" },
      body: { error: "Template sandbox busy", code: "SANDBOX_BUSY", success: false, message },
    });
    const attempt = (owner: string, signal?: AbortSignal) =>
      renderCatalogueOffThread(owner, "welcome", props, false, signal).then(
        // A plain object: the worker's reply has none of Object's prototype.
        (rendered) => ({ rendered: { ...rendered } }),
        (error: unknown) => (error instanceof AppError ? httpError(error) : { failed: String(error) }),
      );
    const attempts = (owner: string, count: number) => Array.from({ length: count }, () => attempt(owner));
    const { perAccount, total: inAll } = CATALOGUE_QUEUE;
    expect(inAll).toBe(4 * perAccount); // four accounts at their cap fill the queue
    const share = Math.floor(inAll / 5);
    // Queued all at once, before any is done. One more than an account may queue: the last is refused.
    const hogA = attempts("hog-a", perAccount + 1);
    const [hogB, hogC] = [attempts("hog-b", perAccount), attempts("hog-c", perAccount - 1)];
    const abandoned = new AbortController();
    const hogCsLast = attempt("hog-c", abandoned.signal);
    const hogD = attempts("hog-d", perAccount);
    // Full; an abandoned render leaves the line, and its place goes to the next.
    abandoned.abort(new Error("The client went away"));
    const hogCsNext = attempt("hog-c");
    // Full again, held by four accounts: a fifth gets in up to its share (the cap ÷ 5), no further.
    const newcomer = attempts("newcomer", share + 1);
    const full = busy("The render workers are busy with other renders; try again in a moment.");
    expect({
      hogA: await Promise.all(hogA),
      hogB: await Promise.all(hogB),
      hogC: [...(await Promise.all(hogC)), await hogCsLast, await hogCsNext],
      hogD: await Promise.all(hogD),
      newcomer: await Promise.all(newcomer),
    }).toEqual({
      hogA: [
        ...Array.from({ length: perAccount }, () => expected),
        busy(`This account already has ${perAccount} renders waiting; try again in a moment.`),
      ],
      hogB: Array.from({ length: perAccount }, () => expected),
      hogC: [
        ...Array.from({ length: perAccount - 1 }, () => expected),
        { failed: "Error: The client went away" },
        expected,
      ],
      hogD: Array.from({ length: perAccount }, () => expected),
      newcomer: [...Array.from({ length: share }, () => expected), full],
    });
  });

  // Only where the test process runs at the default priority: from a higher nice value the worker may not go to 10.
  it.runIf(process.platform === "linux" && os.getPriority(0) === 0)(
    "runs the render worker below the event loop's priority (nice 10), leaving this thread's own",
    async () => {
      const niceOfThreads = () =>
        readdirSync("/proc/self/task").map((tid) =>
          Number(
            readFileSync(`/proc/self/task/${tid}/stat`, "utf8")
              .replace(/^.*\) /, "")
              .split(" ")[16],
          ),
        );
      // Counted before and after: another file's sandbox workers may live on in this process, at nice 10 too.
      const atNice10 = () => niceOfThreads().filter((nice) => nice === 10).length;
      await stopCatalogueWorkers();
      const before = atNice10();
      await renderCatalogueOffThread(OWNER, "welcome", getCatalogueEntry("welcome")!.variables.parse({}), false);
      expect(atNice10()).toBe(before + 1);
      expect(os.getPriority(0)).toBe(0);
    },
  );

  it("reports a template that throws on the render worker as RENDER_ERROR, as render() fails, and the worker keeps serving", async () => {
    const receipt = await getCatalogueEntry("receipt")!.loadComponent();
    await expect(render(createElement(receipt, { items: 42 }))).rejects.toThrow(/reduce is not a function/);
    const error = await renderCatalogueOffThread(OWNER, "receipt", { items: 42 }, false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "RENDER_ERROR",
      message: expect.stringMatching(/^The template threw while rendering: .*reduce is not a function/),
    });
    // A worker without the component is our fault: a plain error (500), not the caller's RENDER_ERROR.
    const missing = await renderCatalogueOffThread(OWNER, "no-such-template", {}, false).catch((e: unknown) => e);
    expect(missing).not.toBeInstanceOf(AppError);
    expect(missing).toMatchObject({
      message: "The render worker has no catalogue component for no-such-template: rebuild it",
    });
    const props = getCatalogueEntry("welcome")!.variables.parse({ userName: "Ada" });
    expect(await renderCatalogueOffThread(OWNER, "welcome", props, false)).toEqual({
      html: await render(createElement(await getCatalogueEntry("welcome")!.loadComponent(), props)),
    });
  });

  describe("the render worker's deadline, HTML bound and turns", () => {
    /** The newsletter's props with `count` articles: more than its schema allows, as only a direct render can pass. */
    const newsletter = (count: number, summary = "Something happened.") => ({
      ...getCatalogueEntry("newsletter")!.variables.parse({ articles: [], unsubscribeUrl: "https://acme.test/u" }),
      articles: Array.from({ length: count }, (_, i) => ({
        title: `Article ${i}`,
        summary,
        url: `https://acme.test/${i}`,
      })),
    });
    const welcome = getCatalogueEntry("welcome")!.variables.parse({ userName: "Ada" });
    const expectedWelcome = async () =>
      render(createElement(await getCatalogueEntry("welcome")!.loadComponent(), welcome));

    it("stops a render that runs past its deadline, and the next render gets a new worker", async () => {
      const started = performance.now();
      // The newsletter of 110,000 articles: seconds of React, 106 MB of HTML.
      const error = await renderCatalogueJsonOffThread("busy", "newsletter", newsletter(110_000), false, {
        success: true,
      }).catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: "RENDER_ERROR",
        message: "The template did not finish rendering within its deadline of 1000 ms",
      });
      expect(await renderCatalogueOffThread("busy", "welcome", welcome, false)).toEqual({
        html: await expectedWelcome(),
      });
    });

    it("refuses HTML over 5 MB", async () => {
      // 600 articles of 10,000 characters each: about 6 MB of HTML, quickly made.
      const error = await renderCatalogueOffThread(
        OWNER,
        "newsletter",
        newsletter(600, "x".repeat(10_000)),
        false,
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: "RENDER_ERROR",
        message: "The rendered HTML is larger than 5 MB (5,242,880 bytes): use fewer or shorter variables",
      });
      expect(await renderCatalogueOffThread(OWNER, "welcome", welcome, false)).toEqual({
        html: await expectedWelcome(),
      });
    });

    it("lets accounts take turns: another account's render does not wait for a busy account's queue", async () => {
      const finished: string[] = [];
      const busy = Array.from({ length: 20 }, (_, i) =>
        renderCatalogueJsonOffThread("busy", "newsletter", newsletter(1_000), false, { success: true }).then(
          () => void finished.push(`busy ${i}`),
        ),
      );
      const started = performance.now();
      const other = await renderCatalogueOffThread("other", "welcome", welcome, false);
      const waited = performance.now() - started;
      finished.push("other");
      await Promise.all(busy);
      expect(other).toEqual({ html: await expectedWelcome() });
      // It waits for at most two of the busy account's renders per worker, not for all twenty.
      expect(waited).toBeLessThan(2_000);
      expect(finished.length - 1 - finished.indexOf("other")).toBeGreaterThanOrEqual(5);
    });
  });

  it("adds the plain-text version when asked", async () => {
    const user = await createUser();
    const result = await renderCall(user, await catalogueId("magic-link"), {
      variables: { loginUrl: "https://acme.test/l" },
      plain_text: true,
    });
    expect(Object.keys(result.body)).toEqual(["success", "html", "text"]);
    expect(result.body.text).toContain("https://acme.test/l");
    expect(result.body.text).not.toContain("<");
  });

  it("gives exactly the plain text @react-email/render's toPlainText() gives, for every catalogue template", async () => {
    for (const entry of catalogue) {
      const html = await render(
        createElement(await entry.loadComponent(), entry.variables.parse(sampleVariables(entry.variables))),
      );
      expect(toPlainTextOnce(html), entry.slug).toBe(reactEmailToPlainText(html));
    }
    const tricky =
      '<p>A <a href="https://x.test">https://x.test</a> <img alt="i" src="i.png"> <span data-skip-in-text="true">no</span></p>' +
      '<table><tr><td>one</td><th>two</th></tr></table><table data-text-format="dataTable"><tr><td>a</td><td>b</td></tr></table>';
    expect(toPlainTextOnce(tricky)).toBe(reactEmailToPlainText(tricky));
  });

  it("escapes variables: markup in a value never becomes markup", async () => {
    const user = await createUser();
    const attack = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`;
    const result = await renderCall(user, await catalogueId("welcome"), {
      variables: { userName: attack, productName: attack },
    });
    expect(result.status).toBe(200);
    expect(result.body.html).not.toContain("<script>");
    expect(result.body.html).not.toContain("<img src=x");
    expect(result.body.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("refuses missing required and mistyped variables, one entry each", async () => {
    const user = await createUser();
    const { template_id } = await addToLibrary(user, "receipt");
    const result = await renderCall(user, template_id, { variables: { items: "three mugs", customerName: 7 } });
    expect(result.status).toBe(400);
    expect(result.body.error).toBe("Invalid request body");
    expect(result.body.code).toBe("VALIDATION_ERROR");
    expect(result.body.success).toBe(false);
    const byField = (a: { field: string }, b: { field: string }) => a.field.localeCompare(b.field);
    expect(result.body.details.sort(byField)).toEqual([
      { field: "variables.customerName", message: "Invalid input: expected string, received number" },
      { field: "variables.items", message: "Invalid input: expected array, received string" },
      { field: "variables.orderId", message: "is required" },
    ]);
  });

  it("says a missing link variable is required, not that it is a bad URL", async () => {
    const user = await createUser();
    const result = await renderCall(user, await catalogueId("magic-link"), { variables: {} });
    expect(result.status).toBe(400);
    expect(result.body.details).toEqual([{ field: "variables.loginUrl", message: "is required" }]);
  });

  it("refuses a javascript: URL in a link variable", async () => {
    const user = await createUser();
    const result = await renderCall(user, await catalogueId("magic-link"), {
      variables: { loginUrl: "javascript:alert(1)" },
    });
    expect(result.status).toBe(400);
    expect(result.body.details).toEqual([{ field: "variables.loginUrl", message: "must be an http(s) URL" }]);
  });

  it('refuses a data: or javascript: URL in every URL variable, optional ones included, and still takes "" for none', async () => {
    const user = await createUser("monthly");
    const VALIDATION = { error: "Invalid request body", code: "VALIDATION_ERROR", success: false };
    const EMPTY_OR_HTTP = "must be an http(s) URL";
    const cases: [slug: string, variables: Record<string, unknown>, details: { field: string; message: string }[]][] = [
      [
        "welcome",
        { logoUrl: "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" },
        [{ field: "variables.logoUrl", message: EMPTY_OR_HTTP }],
      ],
      [
        "receipt",
        { orderId: "A-1", items: [], orderUrl: "javascript:alert(1)" },
        [{ field: "variables.orderUrl", message: EMPTY_OR_HTTP }],
      ],
      [
        "usage-alert",
        { upgradeUrl: "https://example.com/up", usageUrl: "data:text/html,<b>x</b>" },
        [{ field: "variables.usageUrl", message: EMPTY_OR_HTTP }],
      ],
      [
        "newsletter",
        {
          unsubscribeUrl: "https://example.com/u",
          webVersionUrl: "data:text/html,x",
          articles: [
            { title: "T", summary: "S", url: "https://example.com/a", imageUrl: "data:image/png;base64,AAAA" },
          ],
        },
        [
          { field: "variables.articles.0.imageUrl", message: "must be an http(s) URL" },
          { field: "variables.webVersionUrl", message: EMPTY_OR_HTTP },
        ],
      ],
    ];
    const byField = (a: { field: string }, b: { field: string }) => a.field.localeCompare(b.field);
    for (const [slug, variables, details] of cases) {
      const { template_id } = await addToLibrary(user, slug);
      const result = await renderCall(user, template_id, { variables });
      expect(result.status, slug).toBe(400);
      expect({ ...result.body, details: result.body.details.sort(byField) }, slug).toEqual({ ...VALIDATION, details });
    }
    const none = await renderCall(user, await catalogueId("welcome"), { variables: { logoUrl: "" } });
    expect(none.status).toBe(200);
    expect(none.body.html).not.toContain("<img");
  });

  it("refuses variables nested deeper than 32 levels, or holding text that is not valid Unicode, in both formats", async () => {
    const user = await createUser();
    const id = await catalogueId("welcome");
    // Built as text: JSON.stringify itself runs out of stack on a value this deep.
    const deep = `${'{"d":'.repeat(5000)}"x"${"}".repeat(5000)}`;
    for (const format of ["html", "react"]) {
      const nested = await renderCall(user, id, `{"format":"${format}","variables":{"userName":"Ada","deep":${deep}}}`);
      expect(nested.status).toBe(400);
      expect(nested.body).toEqual({
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [
          { field: ["variables", "deep", ...Array(30).fill("d")].join("."), message: "nests deeper than 32 levels" },
        ],
      });
      const surrogate = await renderCall(user, id, { format, variables: { userName: "Ada \ud800" } });
      expect(surrogate.status).toBe(400);
      expect(surrogate.body.details).toEqual([
        { field: "variables.userName", message: "must be valid Unicode text: it holds an unpaired surrogate" },
      ]);
    }
    const paired = await renderCall(user, id, { variables: { userName: "Ada \ud83d\ude00" } });
    expect(paired.status).toBe(200);
    expect(paired.body.html).toContain("Ada \u{1F600}");
  });

  it("refuses a __proto__ key anywhere in the body rather than losing its value", async () => {
    const user = await createUser();
    const id = await catalogueId("welcome");
    const VALIDATION = { error: "Invalid request body", code: "VALIDATION_ERROR", success: false };
    const message = "__proto__ cannot be a key (JavaScript objects would drop it)";
    const top = await renderCall(user, id, '{"variables":{"userName":"Ada","__proto__":{"userName":"Eve"}}}');
    expect({ status: top.status, body: top.body }).toEqual({
      status: 400,
      body: { ...VALIDATION, details: [{ field: "variables.__proto__", message }] },
    });
    const nested = await renderCall(user, id, '{"variables":{"list":[{"a":1},{"__proto__":1}]}}');
    expect({ status: nested.status, body: nested.body }).toEqual({
      status: 400,
      body: { ...VALIDATION, details: [{ field: "variables.list.1.__proto__", message }] },
    });
  });

  it("ignores undeclared variables", async () => {
    const user = await createUser();
    const id = await catalogueId("welcome");
    const plain = await renderCall(user, id, { variables: { userName: "Ada" } });
    const extra = await renderCall(user, id, { variables: { userName: "Ada", notDeclared: "<b>x</b>" } });
    expect(extra.status).toBe(200);
    expect(extra.body.html).toBe(plain.body.html);
  });
});

describe("format: react", () => {
  it("returns the template's source with the variables as default props, which compiles and renders to the same HTML", async () => {
    const user = await createUser();
    const id = await catalogueId("magic-link");
    const variables = { loginUrl: "https://acme.test/login?x=<1>", productName: 'Ada\'s "Shop"', expiresInMinutes: 5 };
    const html = (await renderCall(user, id, { variables })).body.html;
    const react = await renderCall(user, id, { variables, format: "react" });
    expect(react.status).toBe(200);
    expect(Object.keys(react.body)).toEqual(["success", "react"]);
    expect(react.body.react).toContain('"loginUrl": "https://acme.test/login?x=<1>"');

    const Component = await importTsx(react.body.react);
    expect(await render(createElement(Component))).toBe(html);
  });

  it("works for each shape of default export", async () => {
    const shapes = [
      "export default function Email({ name = 'x' }: { name?: string }) { return <p>{name}</p>; }",
      "function Email({ name = 'x' }: { name?: string }) { return <p>{name}</p>; }\nexport default Email;",
      "export default ({ name = 'x' }: { name?: string }) => <p>{name}</p>;",
      "export default function ({ name = 'x' }: { name?: string }) { return <p>{name}</p>; }",
      'import * as React from "react";\nexport default class Email extends React.Component<{ name?: string }> { render() { return <p>{this.props.name}</p>; } }',
      "export default async function Email({ name = 'x' }: { name?: string }) { return <p>{name}</p>; }",
      "const Email = ({ name = 'x' }: { name?: string }) => <p>{name}</p>;\nexport default Email",
      // Text that looks like an export, in a comment and a string, is not the module's default export.
      "// was: export default function Old() {}\nconst s = 'export default Nothing';\nexport default function Email({ name = 'x' }: { name?: string }) { return <p>{name}</p>; }",
      "export /* the email */ default function Email({ name = 'x' }: { name?: string }) { return <p>{name}</p>; }",
      // The wrapper's names are taken already.
      "const letterpressVariables = 1;\nexport default function LetterpressEmail({ name = 'x' }: { name?: string }) { return <p>{name}</p>; }",
      "const LetterpressTemplate = 2;\nexport default ({ name = 'x' }: { name?: string }) => <p>{name}</p>;",
    ];
    for (const code of shapes) {
      const Component = await importTsx(applyVariablesToSource(code, { name: "Ada" }));
      expect(await render(createElement(Component), { pretty: false })).toContain("<p>Ada</p>");
    }
  });
});

/** Values for a catalogue template's required variables (URLs where the name says so), so its schema parses. */
function sampleVariables(schema: (typeof catalogue)[number]["variables"]): Record<string, unknown> {
  const json = schema.toJSONSchema({ io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { type?: string }>;
    required?: string[];
  };
  const values: Record<string, unknown> = {};
  for (const name of json.required ?? []) {
    const type = json.properties?.[name]?.type;
    values[name] =
      type === "number"
        ? 3
        : type === "boolean"
          ? true
          : type === "array"
            ? []
            : /url/i.test(name)
              ? "https://acme.test/x"
              : "Sample";
  }
  return values;
}

import { expect, test } from "@playwright/test";
import { addFromCatalogue, addVerifiedDomain, createTemplateThroughApi, sendThroughApi, signUp } from "./account";
import { cookieHeader } from "./browser";
import { baseUrl, url } from "./served-app";
import { useStoryPage } from "./story-page";

// The API authenticated by the dashboard's session cookie: from the app's own pages, and refused from another origin.
test.describe.configure({ mode: "serial" });

let welcomeId = "";
const story = useStoryPage(async (page) => {
  await signUp(page);
  [welcomeId] = await addFromCatalogue(page, ["Welcome"]);
  await createTemplateThroughApi(page, "E2E note");
  await addVerifiedDomain(page, "mail.e2e-session.dev");
  await sendThroughApi(page, { template_id: welcomeId, to: "qa@example.com", subject: "E2E sent" });
});

test("authenticates the API with the session cookie from the page itself", async () => {
  const { page } = story;
  const result = await page.evaluate(async (id) => {
    const usage = await fetch("/api/v1/usage");
    const library = await fetch("/api/v1/library");
    const render = await fetch(`/api/v1/templates/${id}/render`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ variables: { userName: "Session" } }),
    });
    return {
      usage: [usage.status, await usage.json()],
      library: [library.status, await library.json()],
      render: [render.status, await render.json()],
    };
  }, welcomeId);
  expect(result.usage[0]).toBe(200);
  expect(result.usage[1]).toMatchObject({
    success: true,
    usage: { plan: "free", limit: 500 },
    emails: { current_usage: 1 },
  });
  expect(result.library[0]).toBe(200);
  expect(result.library[1].pagination.total).toBe(2);
  expect(result.render[0]).toBe(200);
  expect(result.render[1].html).toContain("Session");
});

test("refuses a cookie-authenticated POST from a foreign origin with 403 CSRF_REJECTED", async ({ request }) => {
  const { context } = story;
  const cookie = await cookieHeader(context, baseUrl);
  const body = JSON.stringify({ template_id: welcomeId, to: "victim@example.com", subject: "Forged" });
  const foreign = await request.post(url("/api/v1/send"), {
    headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
    data: body,
  });
  expect(foreign.status()).toBe(403);
  expect(await foreign.json()).toEqual({
    error: "Cross-site request refused",
    code: "CSRF_REJECTED",
    success: false,
  });

  const crossSite = await request.post(url(`/api/v1/templates/${welcomeId}/render`), {
    headers: { cookie, "sec-fetch-site": "cross-site", "content-type": "application/json" },
    data: "{}",
  });
  expect(crossSite.status()).toBe(403);

  // The same cookie from the app's own origin is accepted (GETs are never refused).
  const usage = await request.get(url("/api/v1/usage"), { headers: { cookie, origin: "https://evil.example" } });
  expect(usage.status()).toBe(200);
});

import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import {
  addFromCatalogue,
  addVerifiedDomain,
  addWebhookThroughApi,
  createApiKey,
  acceptInvitation,
  createComponentThroughApi,
  createLocalizedTemplateThroughApi,
  createTemplateFilesThroughApi,
  createTemplateThroughApi,
  inviteMember,
  newEmailAddress,
  postForm,
  sendTestWebhookThroughApi,
  sendThroughApi,
  signUp,
  unsubscribeLinkThroughApi,
  createUnsubscribeTemplateThroughApi,
  updateWebhookThroughApi,
} from "./account";
import { horizontalOverflow, screenshot, seriousViolations, settled, watchErrors, type Violation } from "./browser";
import { url } from "./served-app";
import { useStoryPage } from "./story-page";
import { startReceiver, type Receiver } from "./webhook-receiver";

// A tour of every page at 375 and 1440 px wide, signed in with something on each (templates, a shared component of two
// files that one of them imports, a live and a test key, a domain, a delivered, a bounced and a test email, so a suppression, a webhook endpoint whose log holds a delivery that
// failed and one that succeeded, and a disabled one, a member who joined and a pending invitation, so audit entries),
// as that member (the pages that say an admin is needed) and signed out (an email's unsubscribe page among them): nothing may overflow sideways,
// overlap, wrap where it should not or be cut off, and on a phone the dashboard's links are behind a Menu button.
// axe-core checks each page against WCAG 2.0 and 2.1, levels A and AA, at 1440 px (and /docs at 375 px, where its
// tables scroll): a serious or critical violation fails, listed with its rule, impact and the elements it found. The
// screenshots are left in test-results/screenshots/ to look at. Each width's tour is in four parts, which the workers
// share with the other files, each worker in an account it signs up for there.
test.describe.configure({ mode: "parallel" });

let welcomeId = "";
let noteId = "";
let localizedId = "";
let receiptId = "";
let bouncedEmailId = "";
let unsubscribePath = "";
let webhookId = "";
let receiver: Receiver | undefined;
let memberState: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;
let teamlessState: typeof memberState;
const story = useStoryPage(async (page) => {
  // Thirty-odd requests and three sign-ups: about 40 s on an idle machine, beside the other worker's.
  test.setTimeout(180_000);
  // A team is named after the address that signed up for it.
  const teamName = await signUp(page);
  // A member who signed up with the invited address and joined through the link, and an invitation still pending.
  const memberEmail = newEmailAddress();
  await inviteMember(page, memberEmail);
  await inviteMember(page, newEmailAddress(), "admin");
  const memberContext = await page.context().browser()!.newContext();
  const memberPage = await memberContext.newPage();
  await signUp(memberPage, memberEmail);
  await acceptInvitation(memberPage, memberEmail, teamName);
  memberState = await memberContext.storageState();
  await memberContext.close();
  // A person who deleted the only team they had: the dashboard sends them to create one.
  const teamlessContext = await page.context().browser()!.newContext();
  const teamlessPage = await teamlessContext.newPage();
  const teamless = await signUp(teamlessPage);
  const deleted = await postForm(teamlessPage, "/dashboard/settings/delete-team", "Delete this team", {
    confirmation: teamless,
  });
  if (!deleted.ok()) throw new Error(`deleting the team of ${teamless}: ${deleted.status()}`);
  teamlessState = await teamlessContext.storageState();
  await teamlessContext.close();
  [welcomeId] = await addFromCatalogue(page, ["Welcome"]);
  // A name as long as people give them: its file name is in a button of the template's page.
  noteId = await createTemplateThroughApi(page, "E2E note about the quarterly account statement for customers");
  // Its page's locale picker, its editor's messages tabs.
  localizedId = await createLocalizedTemplateThroughApi(page, "E2E localized receipt");
  // The component's pages (its files in tabs, the template that uses it) and the template's page its components.
  await createComponentThroughApi(page, {
    name: "brand-footer",
    description: "The company's address and the unsubscribe link, under every email",
    files: BRAND_FOOTER,
  });
  receiptId = await createTemplateFilesThroughApi(page, "E2E receipt with the brand footer", {
    "email.tsx": [
      'import { Body, Html, Text } from "@react-email/components";',
      'import BrandFooter, { Address } from "@components/brand-footer";',
      "",
      'export default function Receipt({ name = "Ada" }: { name?: string }) {',
      "  return (<Html><Body><Text>Thanks, {name}</Text><Address /><BrandFooter /></Body></Html>);",
      "}",
      "",
    ].join("\n"),
  });
  await createApiKey(page, "E2E server");
  const testKey = await createApiKey(page, "E2E CI", "test");
  // A domain belongs to one account, and each worker has its own.
  await addVerifiedDomain(page, `mail-${randomUUID().slice(0, 8)}.e2e-tour.dev`);
  await sendThroughApi(page, { template_id: welcomeId, to: "qa@example.com", subject: "E2E delivered" });
  bouncedEmailId = await sendThroughApi(page, {
    template_id: welcomeId,
    to: "someone@bounce.test",
    subject: "E2E bounced",
  });
  await sendThroughApi(page, { template_id: welcomeId, to: "qa@example.com", subject: "E2E test" }, testKey);
  // The page of a one-click unsubscribe link, which its recipient opens signed out.
  const digestId = await createUnsubscribeTemplateThroughApi(page, "E2E weekly news");
  unsubscribePath = await unsubscribeLinkThroughApi(page, digestId, "reader@example.com", "weekly digest");
  receiver = await startReceiver();
  const events = ["email.sent", "email.delivered", "email.delivery_delayed", "email.bounced", "email.complained"];
  // The endpoint the tour opens: its test event fails (500, with a body) at its first URL and succeeds at its second;
  // and a disabled one.
  webhookId = await addWebhookThroughApi(page, { url: receiver.url("/fail/orders-and-invoices"), events });
  await sendTestWebhookThroughApi(page, webhookId);
  await updateWebhookThroughApi(page, webhookId, { url: receiver.url("/hooks/orders-and-invoices") });
  await sendTestWebhookThroughApi(page, webhookId);
  const paused = await addWebhookThroughApi(page, {
    url: receiver.url("/hooks/paused"),
    events: ["template.published"],
  });
  await updateWebhookThroughApi(page, paused, { enabled: false });
});
test.afterAll(async () => receiver?.close());

const BRAND_FOOTER = {
  "index.tsx": [
    'import { Hr, Section } from "@react-email/components";',
    'import { Legal } from "./legal";',
    "",
    'export function Address() { return <Legal text="Acme Inc., 1 Main Street, Springfield" />; }',
    "",
    "export default function BrandFooter() {",
    '  return (<Section><Hr /><Legal text="You receive this email because you have an Acme account." /></Section>);',
    "}",
    "",
  ].join("\n"),
  "legal.tsx": "export function Legal({ text }: { text: string }) { return <small>{text}</small>; }\n",
};

const pages: [string, string, string | RegExp][] = [
  ["landing", "/", /Beautiful email/],
  ["docs", "/docs", "Letterpress API"],
  ["overview", "/dashboard", /Hello/],
  ["library", "/dashboard/library", "Library"],
  ["template", "/dashboard/library/{welcome}", "Welcome"],
  ["own-template", "/dashboard/library/{note}", "E2E note"],
  ["edit-template", "/dashboard/library/{note}/edit", "Edit E2E note"],
  ["localized-template", "/dashboard/library/{localized}", "E2E localized receipt"],
  ["edit-localized-template", "/dashboard/library/{localized}/edit", "Edit E2E localized receipt"],
  ["template-with-component", "/dashboard/library/{receipt}", "E2E receipt"],
  ["components", "/dashboard/components", "Components"],
  ["new-component", "/dashboard/components/new", "New component"],
  ["component", "/dashboard/components/brand-footer", "brand-footer"],
  // A save of a version that breaks the template importing it, and a delete while it imports it: both refused, the
  // template named in each answer.
  ["component-refused", "/dashboard/components/brand-footer", "brand-footer"],
  ["catalogue", "/dashboard/catalogue", "Catalogue"],
  ["new-template", "/dashboard/templates/new", "New template"],
  ["usage", "/dashboard/usage", "Usage"],
  ["emails", "/dashboard/emails", "Emails"],
  ["email", "/dashboard/emails/{email}", "E2E bounced"],
  ["suppressions", "/dashboard/emails/suppressions", "Suppressions"],
  ["domains", "/dashboard/domains", "Sending domains"],
  ["webhooks", "/dashboard/webhooks", "Webhooks"],
  ["webhook", "/dashboard/webhooks/{webhook}", /\/hooks\/orders-and-invoices$/],
  ["api-keys", "/dashboard/settings/api-keys", "API keys"],
  ["settings", "/dashboard/settings", "Settings"],
  ["billing", "/dashboard/billing", "Plan & billing"],
  ["team", "/dashboard/settings/team", "Team"],
  ["audit-log", "/dashboard/audit-log", "Audit log"],
  ["delete-team", "/dashboard/settings/delete-team", "Delete team"],
  ["delete-sign-in", "/dashboard/settings/delete-sign-in", "Delete sign-in"],
  ["invite-invalid", "/invite/not-a-real-invitation", "Join a team"],
];

// The pages a member of the team sees in place of an admin's: each says that an admin is needed (Delete team: that only an
// admin can delete it).
const memberPages: [string, string, string | RegExp][] = [
  ["member-team", "/dashboard/settings/team", "Team"],
  ["member-api-keys", "/dashboard/settings/api-keys", "API keys"],
  ["member-domains", "/dashboard/domains", "Sending domains"],
  ["member-webhooks", "/dashboard/webhooks", "Webhooks"],
  ["member-audit-log", "/dashboard/audit-log", "Audit log"],
  ["member-billing", "/dashboard/billing", "Plan & billing"],
  ["member-delete-team", "/dashboard/settings/delete-team", "Delete team"],
];
const teamlessPages: [string, string, string | RegExp][] = [["new-team", "/teams/new", "Create a team"]];

/**
 * What is wrong with the layout of the page shown, as sentences: a badge on a card's thumbnail or heading, a card's
 * buttons on two rows, a tab strip that scrolls, Emails' status filters on two rows at 1440 px, a Revoke button, a
 * Test badge, a webhook's or a delivery's badge or a Replay button cut off by its table or list, a /docs sidebar link
 * cut off or a code in its tables broken across lines, the editor's code pane narrow or cutting lines off, the
 * dashboard's top bar on a phone taller than its one row.
 */
async function layoutFaults(page: Page, name: string): Promise<string[]> {
  return page.evaluate((name) => {
    const faults: string[] = [];
    const overlap = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const shown = (element: Element) => element.getBoundingClientRect().width > 0;
    for (const card of document.querySelectorAll("[data-testid=library-card], [data-testid=catalogue-card]")) {
      const title = card.querySelector("h3")!;
      const covered = [card.querySelector(".thumb")!, title].map((element) => element.getBoundingClientRect());
      for (const badge of card.querySelectorAll(".badge"))
        if (covered.some((box) => overlap(badge.getBoundingClientRect(), box)))
          faults.push(
            `${name}: the badge "${badge.textContent}" covers the thumbnail or heading of ${title.textContent}`,
          );
      const buttons = [...card.querySelectorAll(".template-card-actions .btn")].filter(shown);
      const tops = new Set(buttons.map((button) => button.getBoundingClientRect().top));
      const right = card.getBoundingClientRect().right;
      if (tops.size > 1 || buttons.some((button) => button.getBoundingClientRect().right > right))
        faults.push(`${name}: the buttons of ${title.textContent} wrap or overflow`);
    }
    for (const tabs of document.querySelectorAll("[role=tablist]"))
      if (tabs.scrollHeight > tabs.clientHeight || tabs.scrollWidth > tabs.clientWidth)
        faults.push(`${name}: the tabs "${tabs.getAttribute("aria-label")}" scroll`);
    const filters = [...document.querySelectorAll("[role=group][aria-label='Filter by status'] button")];
    if (window.innerWidth === 1440 && new Set(filters.map((button) => button.getBoundingClientRect().top)).size > 1)
      faults.push(`${name}: the status filters take more than one row`);
    const cutOff = [
      ...[...document.querySelectorAll("[data-testid=api-key-row] button")].filter((b) => b.textContent === "Revoke"),
      ...document.querySelectorAll("[data-testid=email-test]"),
      ...document.querySelectorAll("[data-testid=email-row] .badge-dot"),
      ...document.querySelectorAll("[data-testid=webhook-row] .badge, [data-testid=delivery-row] .badge"),
      ...document.querySelectorAll("[data-testid=delivery-row] button"),
    ];
    for (const element of cutOff)
      if (element.getBoundingClientRect().right > document.documentElement.clientWidth)
        faults.push(`${name}: "${element.textContent}" is cut off`);
    // /docs: a link of the sidebar cut off; a code in a table broken across lines (squeezed columns).
    for (const link of [...document.querySelectorAll<HTMLElement>(".docs-toc a")].filter(shown))
      if (link.scrollWidth > link.clientWidth)
        faults.push(`${name}: the contents link "${link.textContent}" is cut off`);
    for (const code of document.querySelectorAll(".docs-content table code"))
      if (code.getClientRects().length > 1) faults.push(`${name}: the code "${code.textContent}" breaks across lines`);
    // The editor's code pane: wide enough to write in beside the preview at 1440 px, and its lines wrap, never cut off.
    const editor = document.querySelector<HTMLElement>(".code-editor-cm");
    if (editor && window.innerWidth === 1440 && editor.getBoundingClientRect().width < 540)
      faults.push(`${name}: the code pane is ${Math.round(editor.getBoundingClientRect().width)} px wide`);
    const scroller = document.querySelector<HTMLElement>(".code-editor-cm .cm-scroller");
    if (scroller && scroller.scrollWidth > scroller.clientWidth) faults.push(`${name}: the code pane cuts lines off`);
    // The dashboard's top bar on a phone: one row (53 px), however little the page below it holds. On a page shorter
    // than the screen the shell's grid once shared the spare height with it (175 px on Emails with a few emails).
    const bar = document.querySelector(".mobile-bar");
    if (bar && shown(bar) && bar.getBoundingClientRect().height > 64)
      faults.push(`${name}: the top bar is ${Math.round(bar.getBoundingClientRect().height)} px tall`);
    return faults;
  }, name);
}

/** On the component's page: a save without the export its template imports, then a delete; each refusal shown. */
async function refuseComponentChanges(page: Page): Promise<void> {
  await page
    .getByLabel("Component source code")
    .fill(BRAND_FOOTER["index.tsx"].replace("export function Address", "function Address"));
  await page.getByRole("button", { name: "Save new version" }).click();
  await expect(page.getByTestId("broken-templates")).toContainText("E2E receipt with the brand footer: ", {
    timeout: 15_000,
  });
  await page.getByRole("button", { name: "Delete component" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete component" }).click();
  await expect(page.getByTestId("delete-refused")).toContainText("E2E receipt with the brand footer imports");
}

/**
 * The dashboard's links at 375 px: behind a Menu button (a <details> disclosure) that opens from the keyboard, and
 * closed again once a link is followed. At 1440 px: in the sidebar, with no Menu button.
 */
async function checkNavigation(page: Page, width: number): Promise<void> {
  await page.goto(url("/dashboard"));
  await page.getByRole("heading", { level: 1, name: /Hello/ }).waitFor();
  const menu = page.getByRole("banner").locator("summary", { hasText: "Menu" });
  const emails = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Emails" });
  if (width === 1440) {
    await expect(menu).toBeHidden();
    await expect(emails).toBeVisible();
    return;
  }
  await expect(menu).toBeVisible();
  await expect(emails).toBeHidden();
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(emails).toBeVisible();
  await screenshot(page, "menu");
  await emails.click();
  await page.getByRole("heading", { level: 1, name: "Emails" }).waitFor();
  await expect(emails).toBeHidden();
  await expect(menu).toBeVisible();
}

type Visitor = "admin" | "member" | "teamless" | "signed-out";
type Visit = { name: string; path: string; heading?: string | RegExp; visitor: Visitor };

// Every page of the tour, and who opens it: the admin, the member (each page says an admin is needed), the person with
// no team, and nobody signed in (whose header has more in it: Sign in, Get started).
const visits: Visit[] = [
  ...pages.map(([name, path, heading]): Visit => ({ name, path, heading, visitor: "admin" })),
  ...memberPages.map(([name, path, heading]): Visit => ({ name, path, heading, visitor: "member" })),
  ...teamlessPages.map(([name, path, heading]): Visit => ({ name, path, heading, visitor: "teamless" })),
  ...[
    ["landing-signed-out", "/"],
    ["docs-signed-out", "/docs"],
    ["signin", "/signin"],
    ["signup", "/signup"],
    ["unsubscribe", "{unsubscribe}"],
  ].map(([name, path]): Visit => ({ name, path, visitor: "signed-out" })),
];

// The tour in four parts of under a minute each at 1440 px on an idle machine (the whole took 2.8 min there, and over
// its 4 min timeout on a busy one), which the two workers share with the other files.
const PARTS = 4;
const partSize = Math.ceil(visits.length / PARTS);

/** Opens a page of the tour as it is shown to one who opens it, and checks it; its problems are added to `found`. */
async function checkPage(
  page: Page,
  { name, path, heading, visitor }: Visit,
  width: number,
  found: { overflowing: string[]; faults: string[]; violations: Violation[] },
): Promise<void> {
  const answer = await page.goto(
    url(
      path
        .replace("{welcome}", welcomeId)
        .replace("{note}", noteId)
        .replace("{localized}", localizedId)
        .replace("{receipt}", receiptId)
        .replace("{email}", bouncedEmailId)
        .replace("{webhook}", webhookId)
        .replace("{unsubscribe}", unsubscribePath),
    ),
  );
  // A page that failed on the server says so at once, not by its heading's wait running out.
  expect(answer?.status(), name).toBe(200);
  // The answers' first 4 KB shown, as a person opening them sees them.
  if (name === "webhook")
    await page.locator("[data-testid=delivery-row] details").evaluateAll((all) => {
      for (const details of all) (details as HTMLDetailsElement).open = true;
    });
  if (heading) await page.getByRole("heading", { level: 1, name: heading }).first().waitFor();
  if (visitor === "member")
    await expect(
      page.getByText(/An admin (of this team )?is needed|Only an admin of this team can/).first(),
      name,
    ).toBeVisible();
  if (name === "component-refused") await refuseComponentChanges(page);
  if (name === "new-template" || name === "edit-template" || name === "edit-localized-template")
    await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor({ timeout: 15_000 });
  await settled(page);
  await screenshot(page, name);
  if ((await horizontalOverflow(page)) > 0) found.overflowing.push(name);
  if (visitor !== "signed-out") found.faults.push(...(await layoutFaults(page, name)));
  // /docs is checked signed out: the header is all that differs. On a phone /docs' tables and examples scroll
  // sideways, each on its own.
  if ((width === 1440 && name !== "docs") || name === "docs-signed-out")
    found.violations.push(...(await seriousViolations(page, name)));
}

for (const width of [375, 1440])
  for (let part = 0; part < PARTS; part++) {
    const shown = visits.slice(part * partSize, (part + 1) * partSize);
    test(`tours every page at ${width} px, part ${part + 1} of ${PARTS} (${shown[0].name} to ${shown.at(-1)!.name}): nothing overflows sideways, overlaps, wraps or is cut off, and (at 1440 px, and /docs at 375 px) axe-core finds no serious or critical violation`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const states = {
        admin: await story.context.storageState(),
        member: memberState,
        teamless: teamlessState,
        "signed-out": undefined,
      };
      const found = { overflowing: [] as string[], faults: [] as string[], violations: [] as Violation[] };
      const opened = new Map<Visitor, Page>();
      if (part === 0) opened.set("admin", await visitorPage(browser, width, states.admin));
      if (part === 0) await checkNavigation(opened.get("admin")!, width);
      for (const visit of shown) {
        if (!opened.has(visit.visitor))
          opened.set(visit.visitor, await visitorPage(browser, width, states[visit.visitor]));
        await checkPage(opened.get(visit.visitor)!, visit, width, found);
      }
      for (const page of opened.values()) await page.context().close();
      expect(found).toEqual({ overflowing: [], faults: [], violations: [] });
    });
  }

/** A page of its own context, `width` wide, signed in as `state` says (or signed out), its uncaught errors watched. */
async function visitorPage(
  browser: Browser,
  width: number,
  state: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: width === 375 ? 812 : 900 },
    storageState: state,
  });
  const page = await context.newPage();
  watchErrors(page, story.pageErrors);
  return page;
}

import { revalidatePath } from "next/cache";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { addTemplateAction, type AddTemplateState } from "@/app/dashboard/catalogue/actions";
import type { ActionState } from "@/app/dashboard/_lib/action";
import type { CreateTemplateState } from "@/app/dashboard/_lib/template-form";
import { removeFromLibraryAction, publishDraftAction, sendTestEmailAction } from "@/app/dashboard/library/[id]/actions";
import { saveDraftAction } from "@/app/dashboard/library/[id]/edit/actions";
import { createTemplateAction } from "@/app/dashboard/templates/new/actions";
import { removeSuppressionAction } from "@/app/dashboard/emails/suppressions/actions";
import {
  createComponentAction,
  deleteComponentAction,
  updateComponentAction,
  type ComponentEditorState,
  type DeleteComponentState,
} from "@/app/dashboard/components/actions";
import ComponentsPage from "@/app/dashboard/components/page";
import NewComponentPage from "@/app/dashboard/components/new/page";
import ComponentPage from "@/app/dashboard/components/[name]/page";
import EmailsPage from "@/app/dashboard/emails/page";
import EmailPage from "@/app/dashboard/emails/[id]/page";
import SuppressionsPage from "@/app/dashboard/emails/suppressions/page";
import UsagePage from "@/app/dashboard/usage/page";
import { getDb } from "@/lib/db/client";
import { findLibraryEntry } from "@/lib/catalogue/data/library";
import { getComponent } from "@/lib/components/service";
import { getEmailOrThrow } from "@/lib/sent-emails/service";
import { listSuppressionsPage } from "@/lib/suppressions/service";
import { catalogueId, sender, type Sender } from "../support/api";
import { newBrowser, submit, useBrowser } from "../support/next-headers";
import { sentEmailId } from "../support/send";
import { signedIn } from "../support/signed-in";
import { createPerson } from "../support/teams";

// Issue 48, the other half of member-rights.test.ts: what the contract grants members they do through the same
// Server Actions and pages as admins, signed in as a person whose membership is a member's (the role is the
// membership's, not set by the test): templates (create, save a draft, publish), shared components (add, save a
// version, which publishes the templates importing it again, delete) and their pages, the library (add, remove), a
// test send, a suppression's removal, usage and the emails pages. Each change is the team's, and the audit log names
// the member as its actor.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
vi.mock("next/headers", () => import("../support/next-headers"));
// The pages are rendered whole, their client components (the emails' status filter) with them, outside an app router.
vi.mock("next/navigation", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/navigation")>()),
  useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }),
  usePathname: () => "/dashboard/emails",
  useSearchParams: () => new URLSearchParams(),
}));

const hello = (greeting: string) => `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>${greeting} {name}</Text></Html>;
}
Hello.PreviewProps = { name: "Ada" };
`;

let team: Sender;
let member: { id: string; email: string };

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replaceAll("&#x27;", "'")
    .trim();

/** The team's audit entries of the actions this file takes, oldest first. */
const entries = () =>
  getDb()<{ action: string; actor_id: string; target_id: string }[]>`
    select action, actor_id, target_id from audit_log
    where account_id = ${team.accountId} and actor_type = 'user'
    order by created_at, seq`;

beforeAll(async () => {
  useBrowser(newBrowser("203.0.113.148"));
  team = await sender("monthly");
  member = await createPerson();
  await getDb()`insert into memberships (account_id, person_id, role) values (${team.accountId}, ${member.id}, 'member')`;
  signedIn.accountId = team.accountId;
  signedIn.personId = member.id;
});

describe("a member in the dashboard", () => {
  it("is a member of the team by their membership", async () => {
    const { getCurrentAccount } = await import("@/lib/auth/current");
    expect(await getCurrentAccount()).toMatchObject({ id: team.accountId, role: "member", person: member });
  });

  it("creates a template, saves its draft and publishes it", async () => {
    const created = await submit<CreateTemplateState>(createTemplateAction, {
      name: "Hello",
      description: "",
      code: hello("Hi"),
    });
    expect(created).toEqual({ redirect: expect.stringMatching(/^\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/) });
    const id = /library\/([0-9a-f-]{36})/.exec((created as { redirect: string }).redirect)![1];
    expect(
      await getDb()`select owner_account_id, published_version from templates where id = ${id}`.then(([row]) => row),
    ).toEqual({ owner_account_id: team.accountId, published_version: 1 });

    expect(
      await submit<CreateTemplateState>(saveDraftAction, { id, name: "Hello", description: "", code: hello("Hey") }),
    ).toEqual({ redirect: `/dashboard/library/${id}?draft=saved` });
    expect(await submit<ActionState>(publishDraftAction, { id, revision: "1" })).toEqual({
      state: { status: "success", message: "Published the draft as version 2. Sends use it from now on." },
    });
    expect(await getDb()`select code, published_version from templates where id = ${id}`.then(([row]) => row)).toEqual({
      code: hello("Hey"),
      published_version: 2,
    });
    expect((await entries()).filter((entry) => entry.target_id === id)).toEqual([
      { action: "template.created", actor_id: member.id, target_id: id },
      { action: "template.published", actor_id: member.id, target_id: id },
    ]);
  });

  it("adds shared components, saves one's next version (publishing the template that imports it again), deletes one no template imports, and sees their pages", async () => {
    const footer = (text: string) =>
      JSON.stringify({ "index.tsx": `export default function Footer() { return <small>${text}</small>; }\n` });
    expect(
      await submit<ComponentEditorState>(createComponentAction, {
        name: "footer",
        description: "",
        files: footer("Acme"),
        entry: "index.tsx",
      }),
    ).toEqual({ redirect: "/dashboard/components/footer?created=1" });
    const created = await submit<CreateTemplateState>(createTemplateAction, {
      name: "Signed",
      description: "",
      code: `import { Html } from "@react-email/components";\nimport Footer from "@components/footer";\nexport default function Signed() {\n  return <Html><Footer /></Html>;\n}\n`,
    });
    const id = /library\/([0-9a-f-]{36})/.exec((created as { redirect: string }).redirect)![1];
    expect(
      await submit<ComponentEditorState>(updateComponentAction, {
        name: "footer",
        description: "",
        files: footer("Acme Ltd"),
        entry: "index.tsx",
        version: "1",
      }),
    ).toEqual({
      state: {
        status: "success",
        message: "Saved as version 2. The template that imports it is published again with it:",
        republished: [{ template_id: id, version: 2 }],
      },
    });
    expect(
      await submit<DeleteComponentState>((_state, form) => deleteComponentAction(form), { name: "footer" }),
    ).toEqual({
      state: {
        status: "error",
        message: "A template imports @components/footer: change it first.",
        importers: [{ template_id: id, message: "Signed imports @components/footer" }],
      },
    });
    expect(await getComponent(team.accountId, "footer")).toMatchObject({ version: 2 });
    expect(
      await submit<ComponentEditorState>(createComponentAction, {
        name: "badge",
        description: "",
        files: footer("New"),
        entry: "index.tsx",
      }),
    ).toEqual({ redirect: "/dashboard/components/badge?created=1" });
    expect(
      await submit<DeleteComponentState>((_state, form) => deleteComponentAction(form), { name: "badge" }),
    ).toEqual({ redirect: "/dashboard/components?deleted=1" });
    expect((await entries()).filter((entry) => entry.target_id === id)).toEqual([
      { action: "template.created", actor_id: member.id, target_id: id },
      { action: "template.published", actor_id: member.id, target_id: id },
    ]);

    expect(text(renderToStaticMarkup(await ComponentsPage({ searchParams: Promise.resolve({}) })))).toContain(
      "Your components 1 of 100 Component Version Used by Updated footer v2 1 template",
    );
    expect(text(renderToStaticMarkup(await NewComponentPage()))).toContain("New component");
    expect(
      text(
        renderToStaticMarkup(
          await ComponentPage({ params: Promise.resolve({ name: "footer" }), searchParams: Promise.resolve({}) }),
        ),
      ),
    ).toContain("Used by 1 template Template Built with Signed Version 2 (current)");
  });

  it("adds a catalogue template to the library and removes it", async () => {
    const magicLink = await catalogueId("magic-link");
    expect(await submit<AddTemplateState>(addTemplateAction, { templateId: magicLink })).toEqual({
      state: { status: "success", templateId: magicLink, message: "Added “Magic link sign-in” to your library." },
    });
    expect(await findLibraryEntry(team.accountId, magicLink)).toMatchObject({ added_via: "free" });
    expect(await submit<ActionState>((_state, form) => removeFromLibraryAction(form), { id: magicLink })).toEqual({
      redirect: "/dashboard/library?removed=1",
    });
    expect(await findLibraryEntry(team.accountId, magicLink)).toBeNull();
    expect((await entries()).filter((entry) => entry.target_id === magicLink)).toEqual([
      { action: "library.added", actor_id: member.id, target_id: magicLink },
      { action: "library.removed", actor_id: member.id, target_id: magicLink },
    ]);
  });

  it("sends a test email, and sees it on the emails pages and the usage page", async () => {
    const state = await sendTestEmailAction({
      templateId: team.welcomeId,
      to: "ann@example.com",
      subject: "Welcome aboard",
      from: "",
      variables: { userName: "Ann" },
    });
    expect(state).toEqual({
      status: "success",
      message: "Test sent to ann@example.com.",
      emailId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(await getEmailOrThrow(team.accountId, state.emailId!)).toMatchObject({
      id: state.emailId,
      status: "delivered",
      test: true,
      to: ["ann@example.com"],
    });

    const list = text(renderToStaticMarkup(await EmailsPage({ searchParams: Promise.resolve({}) })));
    expect(list).toContain(
      `Subject Status From When Actions Welcome aboard to ann@example.com Just now Simulated delivery Test hello@${team.domain} Just now`,
    );
    const one = text(renderToStaticMarkup(await EmailPage({ params: Promise.resolve({ id: state.emailId! }) })));
    expect(one).toContain(`Details From hello@${team.domain} To ann@example.com Subject Welcome aboard Created`);
    expect(one).toContain(`Template Welcome, version 1 Locale en Message id ${state.emailId}`);
    const usage = text(renderToStaticMarkup(await UsagePage()));
    expect(usage).toMatch(/^Usage This month so far .* Plan Monthly .* Test sends 1 today /);
  });

  it("removes a suppressed address, seen on the suppressions page", async () => {
    await sentEmailId(team, { to: "gone@bounce.test" });
    const page = async () => text(renderToStaticMarkup(await SuppressionsPage({ searchParams: Promise.resolve({}) })));
    expect(await page()).toContain("gone@bounce.test");
    vi.mocked(revalidatePath).mockClear();
    const form = new FormData();
    form.set("email", "gone@bounce.test");
    await removeSuppressionAction(form);
    expect(await listSuppressionsPage(team.accountId, { limit: 50, offset: 0 })).toEqual({
      suppressions: [],
      pagination: { limit: 50, offset: 0, total: 0 },
    });
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard/emails/suppressions"]]);
    expect(await page()).not.toContain("gone@bounce.test");
    expect((await entries()).filter((entry) => entry.action === "suppression.removed")).toEqual([
      { action: "suppression.removed", actor_id: member.id, target_id: expect.any(String) },
    ]);
  });
});

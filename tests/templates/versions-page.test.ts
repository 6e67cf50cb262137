import { isValidElement, type ReactElement, type ReactNode } from "react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ActionState } from "@/app/dashboard/_lib/action";
import { publishDraftAction, restoreVersionAction, versionFilesAction } from "@/app/dashboard/library/[id]/actions";
import TemplatePage from "@/app/dashboard/library/[id]/page";
import { DraftCard, VersionsCard } from "@/app/dashboard/library/[id]/versions";
import { getDb } from "@/lib/db/client";
import { findOwnDraft } from "@/lib/templates/data/drafts";
import { createTemplateFromSource, replaceTemplateFromSource } from "@/lib/templates/user-templates";
import { addToLibrary, catalogueId, createUser, ISO, type TestUser } from "../support/api";
import { newBrowser, submit, useBrowser } from "../support/next-headers";
import { signedIn } from "../support/signed-in";

// A template's page shows its published version and its draft (with the draft's preview), publishes the draft at the
// revision shown, lists its versions with Restore, and hands the versions panel any version's files to diff.
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

const hello = (greeting: string) => `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>${greeting} {name}</Text></Html>;
}
Hello.PreviewProps = { name: "Ada" };
`;

let author: TestUser;
beforeAll(async () => {
  useBrowser(newBrowser("203.0.113.82"));
  author = await createUser("annual");
  signedIn.accountId = author.accountId;
});

/** A template of the author's, version 1 saying "Hi". */
const newTemplate = async () =>
  (await createTemplateFromSource(author.accountId, { name: "Hello", description: "", code: hello("Hi") })).id;

const saveDraft = (id: string, greeting: string) =>
  replaceTemplateFromSource(author.accountId, id, {
    name: "Hello",
    description: "",
    code: hello(greeting),
    publish: false,
  });

const publish = (id: string, revision: string) => submit<ActionState>(publishDraftAction, { id, revision });
const restore = (id: string, version: string, publishToo = false) =>
  submit<ActionState>(restoreVersionAction, { id, version, publish: publishToo ? "1" : "0" });

const publishedOf = async (id: string) =>
  (await getDb()`select code, published_version from templates where id = ${id}`)[0];

function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  return [node as ReactElement<Record<string, unknown>>, ...elements(node.props.children)];
}

async function pageProps(id: string, query: Record<string, string> = {}) {
  const page = elements(await TemplatePage({ params: Promise.resolve({ id }), searchParams: Promise.resolve(query) }));
  return {
    draftCard: page.find((element) => element.type === DraftCard)?.props,
    versionsCard: page.find((element) => element.type === VersionsCard)?.props,
  };
}

describe("publishing the draft from the template's page", () => {
  it("publishes the draft at the revision shown as the next version, the content sends use, and the draft is gone", async () => {
    const id = await newTemplate();
    await saveDraft(id, "Hello");
    const { revision } = (await findOwnDraft(author.accountId, id))!;
    expect(await publish(id, String(revision))).toEqual({
      state: { status: "success", message: "Published the draft as version 2. Sends use it from now on." },
    });
    expect({ template: await publishedOf(id), draft: await findOwnDraft(author.accountId, id) }).toEqual({
      template: { code: hello("Hello"), published_version: 2 },
      draft: null,
    });
  });

  it("refuses a draft saved since the page was shown with the API's message, and publishes nothing", async () => {
    const id = await newTemplate();
    await saveDraft(id, "Hello");
    const { revision } = (await findOwnDraft(author.accountId, id))!;
    await saveDraft(id, "Saved in another tab");
    expect(await publish(id, String(revision))).toEqual({
      state: {
        status: "error",
        message: `The draft is at revision ${revision + 1}, not ${revision}: it was saved again since. Read it and publish again.`,
      },
    });
    expect(await publishedOf(id)).toEqual({ code: hello("Hi"), published_version: 1 });
  });

  it("answers no draft, a revision that is none, and another account's template with their messages", async () => {
    const id = await newTemplate();
    expect(await publish(id, "7")).toEqual({
      state: { status: "error", message: "This template has no draft to publish" },
    });
    expect(await publish(id, "1e3")).toEqual({
      state: { status: "error", message: "Reload the page to see the draft, then publish it." },
    });
    const other = await createUser("annual");
    const theirs = (await createTemplateFromSource(other.accountId, { name: "T", description: "", code: hello("Yo") }))
      .id;
    await replaceTemplateFromSource(other.accountId, theirs, {
      name: "T",
      description: "",
      code: hello("X"),
      publish: false,
    });
    expect(await publish(theirs, "2")).toEqual({
      state: { status: "error", message: "This template is not one of yours any more: it may have been deleted." },
    });
    expect(await publishedOf(theirs)).toEqual({ code: hello("Yo"), published_version: 1 });
  });
});

describe("restoring a version from the versions panel", () => {
  it("copies the version into the draft, or publishes it at once as the next version", async () => {
    const id = await newTemplate();
    await replaceTemplateFromSource(author.accountId, id, { name: "Hello", description: "", code: hello("Two") });
    expect(await restore(id, "1")).toEqual({
      state: { status: "success", message: "Restored version 1 into the draft. Publish it to send it." },
    });
    expect({ template: await publishedOf(id), draft: (await findOwnDraft(author.accountId, id))?.code }).toEqual({
      template: { code: hello("Two"), published_version: 2 },
      draft: hello("Hi"),
    });
    await saveDraft(id, "Three");
    expect(await restore(id, "1", true)).toEqual({
      state: { status: "success", message: "Restored version 1 and published it as version 3." },
    });
    // Publishing a restored version leaves the draft, work in progress perhaps, as it was.
    expect({ template: await publishedOf(id), draft: (await findOwnDraft(author.accountId, id))?.code }).toEqual({
      template: { code: hello("Hi"), published_version: 3 },
      draft: hello("Three"),
    });
  });

  it("answers a version the template does not have, and one that is not a number, and changes nothing", async () => {
    const id = await newTemplate();
    expect(await restore(id, "99")).toEqual({ state: { status: "error", message: "This template has no version 99" } });
    expect(await restore(id, "-1")).toEqual({
      state: { status: "error", message: "Choose a version of the template to restore." },
    });
    expect({ template: await publishedOf(id), draft: await findOwnDraft(author.accountId, id) }).toEqual({
      template: { code: hello("Hi"), published_version: 1 },
      draft: null,
    });
  });
});

describe("the versions panel's files", () => {
  it("answers a version's files, a one-file template's under template.tsx; no such version, or not the account's, with a message", async () => {
    const id = await newTemplate();
    await replaceTemplateFromSource(author.accountId, id, {
      name: "Hello",
      description: "",
      files: { "email.tsx": hello("Two"), "parts/a.tsx": "export const a = 1;\n" },
    });
    expect(await versionFilesAction(id, 1)).toEqual({ ok: true, files: { "template.tsx": hello("Hi") } });
    expect(await versionFilesAction(id, 2)).toEqual({
      ok: true,
      files: { "email.tsx": hello("Two"), "parts/a.tsx": "export const a = 1;\n" },
    });
    expect(await versionFilesAction(id, 3)).toEqual({ ok: false, message: "This template has no version 3" });
    const other = await createUser("annual");
    signedIn.accountId = other.accountId;
    try {
      expect(await versionFilesAction(id, 1)).toEqual({ ok: false, message: "Template not found" });
    } finally {
      signedIn.accountId = author.accountId;
    }
  });
});

describe("the template's page", () => {
  it("shows the published version, the draft with its own preview, and the versions newest first, the linked one marked", async () => {
    const id = await newTemplate();
    await replaceTemplateFromSource(author.accountId, id, {
      name: "Hello",
      description: "",
      code: hello("Two"),
      publishedBy: { via: "session" },
    });
    await saveDraft(id, "Draft says");
    const draft = (await findOwnDraft(author.accountId, id))!;
    const { draftCard, versionsCard } = await pageProps(id, { version: "1" });
    expect(draftCard).toEqual({
      templateId: id,
      published: { version: 2, published_at: ISO },
      draft: { revision: draft.revision, updated_at: draft.updated_at.toISOString() },
      draftPreview: { html: expect.stringContaining("Draft says <!-- -->Ada"), text: expect.any(String), error: null },
      justSaved: false,
      savedWarnings: [],
      // The versions panel stands under it, above the workbench.
      children: expect.objectContaining({ type: VersionsCard }),
    });
    expect(versionsCard).toEqual({
      templateId: id,
      versions: [
        // Who published it, when recorded: version 1 was saved here without saying.
        { version: 2, published_at: ISO, published_by: "you, signed in", reason: null },
        { version: 1, published_at: ISO, published_by: null, reason: null },
      ],
      total: 2,
      current: 2,
      hasDraft: true,
      highlighted: 1,
    });
  });

  it("shows no draft preview without a draft; a catalogue template's page has no draft or versions panel", async () => {
    const id = await newTemplate();
    expect((await pageProps(id, { version: "x" })).draftCard).toEqual({
      templateId: id,
      published: { version: 1, published_at: ISO },
      draft: null,
      draftPreview: null,
      justSaved: false,
      savedWarnings: [],
      children: expect.objectContaining({ type: VersionsCard }),
    });
    expect((await pageProps(id, { version: "x" })).versionsCard).toMatchObject({ highlighted: null, hasDraft: false });
    // Back from the editor's Save draft, the card says it was saved.
    expect((await pageProps(id, { draft: "saved" })).draftCard?.justSaved).toBe(true);
    await addToLibrary(author, "welcome");
    expect(await pageProps(await catalogueId("welcome"))).toEqual({ draftCard: undefined, versionsCard: undefined });
  });
});

import { revalidatePath } from "next/cache";
import { isValidElement, type ReactElement, type ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { addTemplateAction, type AddTemplateState } from "@/app/dashboard/catalogue/actions";
import type { ActionState } from "@/app/dashboard/_lib/action";
import { deleteTemplateAction, removeFromLibraryAction } from "@/app/dashboard/library/[id]/actions";
import { CatalogueGrid } from "@/app/dashboard/catalogue/catalogue-grid";
import CataloguePage from "@/app/dashboard/catalogue/page";
import LibraryPage from "@/app/dashboard/library/page";
import { getDb } from "@/lib/db/client";
import { findLibraryEntry } from "@/lib/catalogue/data/library";
import { getEmailOrThrow } from "@/lib/sent-emails/service";
import { createTemplateFromSource, replaceTemplateFromSource } from "@/lib/templates/user-templates";
import { addToLibrary, catalogueId, createUser, sender, type TestUser } from "../support/api";
import { submit } from "../support/next-headers";
import { sentEmailId } from "../support/send";
import { signedIn } from "../support/signed-in";

// The template page's Delete (a template the account wrote) and Remove from library (a catalogue template), as
// DELETE /templates/{id} and DELETE /library/{id} do, and adding a bought template back without buying it again.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
// A Server Action runs inside a request: its headers give the audit log the client's address.
vi.mock("next/headers", () => import("../support/next-headers"));

const hello = (greeting: string) => `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>${greeting} {name}</Text></Html>;
}
`;

const deleteTemplate = (id: string) => submit<ActionState>((_state, form) => deleteTemplateAction(form), { id });
const removeFromLibrary = (id: string) => submit<ActionState>((_state, form) => removeFromLibraryAction(form), { id });
const addTemplate = (templateId: string) => submit<AddTemplateState>(addTemplateAction, { templateId });

const rowsOf = async (id: string) =>
  (
    await getDb()<{ templates: number; versions: number; drafts: number; entries: number }[]>`
      select (select count(*)::int from templates where id = ${id}) as templates,
             (select count(*)::int from template_versions where template_id = ${id}) as versions,
             (select count(*)::int from template_drafts where template_id = ${id}) as drafts,
             (select count(*)::int from library_entries where template_id = ${id}) as entries`
  )[0];

const purchasesOf = async (user: TestUser) =>
  (await getDb()<{ n: number }[]>`select count(*)::int as n from purchases where account_id = ${user.accountId}`)[0].n;

/** Every element in a page's tree (server components' output: their children are elements already). */
function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  return [node as ReactElement<Record<string, unknown>>, ...elements(node.props.children)];
}

/** The text of an element's children, as the browser shows it. */
function textOf(node: ReactNode): string {
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (typeof node === "string" || typeof node === "number") return String(node);
  return isValidElement<{ children?: ReactNode }>(node) ? textOf(node.props.children) : "";
}

/** The library page's status messages, with the query the template page sends it with. */
async function libraryMessages(query: Record<string, string>): Promise<string[]> {
  const page = await LibraryPage({ searchParams: Promise.resolve(query) });
  return elements(page)
    .filter((element) => element.props.role === "status")
    .map((element) => textOf(element.props.children as ReactNode));
}

beforeEach(() => void vi.mocked(revalidatePath).mockClear());

describe("deleteTemplateAction", () => {
  it("deletes the account's template with its versions, draft and alias, keeps the emails sent with it, and goes to the library saying what it deleted", async () => {
    const user = await sender("free");
    signedIn.accountId = user.accountId;
    const { id } = await createTemplateFromSource(user.accountId, {
      name: "Hello & “you”",
      description: "",
      alias: "hello",
      code: hello("Hi"),
    });
    await replaceTemplateFromSource(user.accountId, id, {
      name: "Hello & “you”",
      description: "",
      code: hello("Hey"),
      publish: false,
    });
    const emailId = await sentEmailId(user, { template_id: "hello" });
    expect(await rowsOf(id)).toEqual({ templates: 1, versions: 1, drafts: 1, entries: 1 });

    expect(await deleteTemplate(id)).toEqual({ redirect: "/dashboard/library?deleted=1" });
    expect(await rowsOf(id)).toEqual({ templates: 0, versions: 0, drafts: 0, entries: 0 });
    expect((await getEmailOrThrow(user.accountId, emailId)).id).toBe(emailId);
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard", "layout"]]);
    // The alias is free for another template.
    await expect(
      createTemplateFromSource(user.accountId, { name: "Again", description: "", alias: "hello", code: hello("Yo") }),
    ).resolves.toMatchObject({ name: "Again" });

    expect(await libraryMessages({ deleted: "1" })).toEqual([
      "The template is deleted. Emails already sent with it stay in Emails.",
    ]);
    // A notice says nothing a link could make up.
    expect(await libraryMessages({ deleted: "Your account is closed: call +1 555 0100" })).toEqual([]);
  });

  it("answers a form message for a template deleted meanwhile, another account's, a catalogue template and an id that is none, deleting nothing", async () => {
    const user = await createUser("free");
    const other = await createUser("free");
    signedIn.accountId = user.accountId;
    const mine = (await createTemplateFromSource(user.accountId, { name: "Mine", description: "", code: hello("Hi") }))
      .id;
    const theirs = (
      await createTemplateFromSource(other.accountId, { name: "Theirs", description: "", code: hello("Yo") })
    ).id;
    const { template_id: welcome } = await addToLibrary(user, "welcome");
    expect(await deleteTemplate(mine)).toEqual({ redirect: "/dashboard/library?deleted=1" });
    vi.mocked(revalidatePath).mockClear();

    for (const id of [mine, theirs, welcome, "not-an-id", "x".repeat(100_000)])
      expect(await deleteTemplate(id)).toEqual({
        state: { status: "error", message: "This template is not one of yours any more: it may have been deleted." },
      });
    expect(await rowsOf(theirs)).toMatchObject({ templates: 1, entries: 1 });
    expect(await findLibraryEntry(user.accountId, welcome)).toMatchObject({ added_via: "free" });
    expect(vi.mocked(revalidatePath)).not.toHaveBeenCalled();
  });
});

describe("removeFromLibraryAction", () => {
  it("takes a free catalogue template out of the library, freeing its slot, and goes to the library saying so; it can be added again", async () => {
    const user = await createUser("free");
    signedIn.accountId = user.accountId;
    const { template_id: welcome } = await addToLibrary(user, "welcome");

    expect(await removeFromLibrary(welcome)).toEqual({ redirect: "/dashboard/library?removed=1" });
    expect(await findLibraryEntry(user.accountId, welcome)).toBeNull();
    expect(await rowsOf(welcome)).toMatchObject({ templates: 1 });
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard", "layout"]]);
    expect(await libraryMessages({ removed: "1" })).toEqual([
      "The template is out of your library. You can add it back from the catalogue any time.",
    ]);

    expect(await addTemplate(welcome)).toEqual({
      state: { status: "success", templateId: welcome, message: "Added “Welcome” to your library." },
    });
    expect(await findLibraryEntry(user.accountId, welcome)).toMatchObject({ added_via: "free" });
  });

  it("takes a bought template out; the catalogue then offers to add it back, which puts it back as purchased without a new purchase, past the month's purchase limit", async () => {
    const user = await createUser("free");
    signedIn.accountId = user.accountId;
    const { template_id: receipt } = await addToLibrary(user, "receipt");
    expect(await purchasesOf(user)).toBe(1);

    expect(await removeFromLibrary(receipt)).toEqual({
      redirect: "/dashboard/library?removed=1",
    });
    expect(await findLibraryEntry(user.accountId, receipt)).toBeNull();

    // The free plan's one purchase a month is made, yet the bought template's card is not a purchase.
    const grid = elements(await CataloguePage({ searchParams: Promise.resolve({}) })).find(
      (element) => element.type === CatalogueGrid,
    )!;
    expect(grid.props.blockers).toMatchObject({ purchase: "purchase-limit" });
    const cards = grid.props.cards as { id: string; addedVia: string | null; bought: boolean }[];
    expect(cards.find((card) => card.id === receipt)).toMatchObject({ addedVia: null, bought: true });
    expect(cards.filter((card) => card.bought).map((card) => card.id)).toEqual([receipt]);

    expect(await addTemplate(receipt)).toEqual({
      state: {
        status: "success",
        templateId: receipt,
        message: "“Order receipt” is back in your library. You bought it before, so nothing was charged.",
      },
    });
    expect(await findLibraryEntry(user.accountId, receipt)).toMatchObject({ added_via: "purchased" });
    expect(await purchasesOf(user)).toBe(1);
  });

  it("answers a form message for a template not in the library, one the account wrote and an id that is none, removing nothing", async () => {
    const user = await createUser("free");
    signedIn.accountId = user.accountId;
    await addToLibrary(user, "welcome");
    const mine = (await createTemplateFromSource(user.accountId, { name: "Mine", description: "", code: hello("Hi") }))
      .id;

    for (const id of [await catalogueId("magic-link"), mine, "not-an-id", "x".repeat(100_000)])
      expect(await removeFromLibrary(id)).toEqual({
        state: { status: "error", message: "This template is not in your library any more: it may have been removed." },
      });
    expect(await rowsOf(mine)).toMatchObject({ templates: 1, entries: 1 });
    expect(await findLibraryEntry(user.accountId, await catalogueId("welcome"))).toMatchObject({ added_via: "free" });
    expect(vi.mocked(revalidatePath)).not.toHaveBeenCalled();
  });
});

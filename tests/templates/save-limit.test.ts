import { beforeAll, describe, expect, it, vi } from "vitest";
import type { CreateTemplateState } from "@/app/dashboard/_lib/template-form";
import { createTemplateAction } from "@/app/dashboard/templates/new/actions";
import { getDb } from "@/lib/db/client";
import { PREVIEW_LIMITS } from "@/lib/core/limits";
import { billingPeriod } from "@/lib/core/plans";
import { counter, createUser, fillPreviewBucket, setApiCallsUsed, type TestUser } from "../support/api";
import { objectOfKeys } from "../support/json-shapes";
import { newBrowser, useBrowser } from "../support/next-headers";
import { signedIn } from "../support/signed-in";

// Saving a template in the editor compiles it and renders it once in the sandbox: it counts as a dashboard preview.
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
`;

let user: TestUser;
beforeAll(async () => {
  user = signIn(await createUser("annual"));
});

function signIn(account: TestUser): TestUser {
  signedIn.accountId = account.accountId;
  return account;
}

/** Saves HELLO as `name` from the editor: the form's answer, or NEXT_REDIRECT when it was saved. */
async function save(name: string): Promise<CreateTemplateState | string> {
  const form = new FormData();
  form.set("name", name);
  form.set("description", "");
  form.set("code", HELLO);
  return createTemplateAction({ status: "idle" }, form).catch((error: Error) => error.message);
}

const templatesOf = (account: TestUser) =>
  getDb()`select name from templates where owner_account_id = ${account.accountId}`;

describe("saving a template in the dashboard", () => {
  it("is refused past the account's preview limit, with the limit's message, and stores nothing; another account saves", async () => {
    await fillPreviewBucket(`preview:account:${user.accountId}`, PREVIEW_LIMITS.perAccount);
    expect(await save("Over the limit")).toEqual({
      status: "error",
      message: expect.stringMatching(
        new RegExp(
          `^Dashboard previews are limited to ${PREVIEW_LIMITS.perAccount} a minute per account\\. Try again in \\d+ seconds?\\.$`,
        ),
      ),
      values: { name: "Over the limit", description: "" },
    });
    expect(await templatesOf(user)).toEqual([]);
    const other = signIn(await createUser("annual"));
    expect(await save("Within the limit")).toBe("NEXT_REDIRECT");
    expect(await templatesOf(other)).toEqual([{ name: "Within the limit" }]);
  });

  it("is refused past the address's preview limit, whichever account saves; from another address it saves", async () => {
    signIn(await createUser("annual"));
    useBrowser(newBrowser("198.51.100.41"));
    await fillPreviewBucket("preview:address:198.51.100.41", PREVIEW_LIMITS.perAddress);
    expect(await save("Crowded address")).toEqual({
      status: "error",
      message: expect.stringMatching(
        new RegExp(
          `^Dashboard previews are limited to ${PREVIEW_LIMITS.perAddress} a minute per network address\\. Try again in \\d+ seconds?\\.$`,
        ),
      ),
      values: { name: "Crowded address", description: "" },
    });
    useBrowser(newBrowser("198.51.100.42"));
    expect(await save("Quiet address")).toBe("NEXT_REDIRECT");
  });

  it("is refused once the month's API calls are used up, with /render's message, as the live preview is; another account saves, and no call is counted", async () => {
    const spent = signIn(await createUser("free"));
    await setApiCallsUsed(spent, 500);
    const reset = billingPeriod().reset.toISOString();
    expect(await save("Out of calls")).toEqual({
      status: "error",
      message: `Your free plan includes 500 API calls per month. The limit resets at ${reset}; upgrade for unlimited calls.`,
      values: { name: "Out of calls", description: "" },
    });
    expect(await templatesOf(spent)).toEqual([]);
    const other = signIn(await createUser("free"));
    await setApiCallsUsed(other, 499);
    expect(await save("One call left")).toBe("NEXT_REDIRECT");
    expect({ templates: await templatesOf(other), calls: await counter(other, "api_calls") }).toEqual({
      templates: [{ name: "One call left" }],
      calls: 499,
    });
  });

  it("answers a compile error's message once, its line and column as numbers beside it, and stores nothing", async () => {
    const author = await createUser("annual");
    signedIn.accountId = author.accountId;
    const form = new FormData();
    form.set("name", "Broken");
    form.set("description", "");
    form.set("code", "export default function Broken() {\n  return <div>;\n}\n");
    const result = await createTemplateAction({ status: "idle" }, form);
    expect(result).toEqual({
      status: "error",
      message: "Syntax error: `<div>` opened on line 2 is never closed",
      line: 2,
      column: 11,
      values: { name: "Broken", description: "" },
    });
    expect(await getDb()`select id from templates where owner_account_id = ${author.accountId}`).toEqual([]);
  });

  it("saves the editor's files (several tabs) through the same checks, the entry as posted", async () => {
    const author = await createUser("annual");
    signedIn.accountId = author.accountId;
    const files = {
      "template.tsx": `import { Html } from "@react-email/components";
import { Footer } from "./components/footer";
export default function Hello() {
  return <Html><Footer /></Html>;
}
`,
      "components/footer.tsx": `import { Text } from "@react-email/components";
export function Footer() {
  return <Text>The footer</Text>;
}
`,
    };
    const form = new FormData();
    form.set("name", "Two files");
    form.set("description", "");
    form.set("files", JSON.stringify(files));
    form.set("entry", "template.tsx");
    const redirected = await createTemplateAction({ status: "idle" }, form).catch((error: Error) => error.message);
    expect(redirected).toBe("NEXT_REDIRECT");
    expect(
      await getDb()`select code, files, entry from templates where owner_account_id = ${author.accountId}`,
    ).toEqual([{ code: files["template.tsx"], files, entry: "template.tsx" }]);
  });

  it("answers a compile error in one of the files with the file's path, line and column, and stores nothing", async () => {
    const author = await createUser("annual");
    signedIn.accountId = author.accountId;
    const form = new FormData();
    form.set("name", "Broken footer");
    form.set("description", "");
    form.set(
      "files",
      JSON.stringify({
        "template.tsx": `import { Footer } from "./components/footer";\nexport default function Hello() { return <Footer />; }\n`,
        "components/footer.tsx": "export function Footer() {\n  return <p>;\n}\n",
      }),
    );
    form.set("entry", "template.tsx");
    expect(await createTemplateAction({ status: "idle" }, form)).toEqual({
      status: "error",
      message: "Syntax error: `<p>` opened on line 2 is never closed",
      line: 2,
      column: 11,
      path: "components/footer.tsx",
      values: { name: "Broken footer", description: "" },
    });
    expect(await getDb()`select id from templates where owner_account_id = ${author.accountId}`).toEqual([]);
  });

  it("refuses a file whose path breaks the rules, naming it, before compiling anything", async () => {
    const author = await createUser("annual");
    signedIn.accountId = author.accountId;
    const form = new FormData();
    form.set("name", "Escapes");
    form.set("description", "");
    form.set("files", JSON.stringify({ "template.tsx": HELLO, "../footer.tsx": "export const a = 1;\n" }));
    form.set("entry", "template.tsx");
    expect(await createTemplateAction({ status: "idle" }, form)).toEqual({
      status: "error",
      message: "files.../footer.tsx must not contain .. (a template's files stay inside it)",
      path: "../footer.tsx",
      values: { name: "Escapes", description: "" },
    });
  });

  it("counts the files' JSON before parsing it, as a request's body is: 20,001 keys are refused", async () => {
    const author = signIn(await createUser("annual"));
    const form = new FormData();
    form.set("name", "Keys");
    form.set("description", "");
    form.set("files", objectOfKeys(20_001));
    form.set("entry", "template.tsx");
    expect(await createTemplateAction({ status: "idle" }, form)).toEqual({
      status: "error",
      message: "files holds more than 20,000 object keys (in all its objects)",
      values: { name: "Keys", description: "" },
    });
    expect(await getDb()`select id from templates where owner_account_id = ${author.accountId}`).toEqual([]);
  });

  it("answers files it cannot read, and a trial render that fails, with their messages and no position", async () => {
    const author = await createUser("annual");
    signedIn.accountId = author.accountId;
    const form = new FormData();
    form.set("name", "Unreadable");
    form.set("description", "");
    form.set("files", "{not json");
    form.set("entry", "template.tsx");
    expect(await createTemplateAction({ status: "idle" }, form)).toEqual({
      status: "error",
      message: "files could not be read",
      values: { name: "Unreadable", description: "" },
    });
    form.set("name", "Throws");
    form.delete("files");
    form.set("code", `export default function Throws() { throw new Error("no copy"); }\n`);
    expect(await createTemplateAction({ status: "idle" }, form)).toEqual({
      status: "error",
      message: "The trial render failed: Template threw: Error: no copy",
      values: { name: "Throws", description: "" },
    });
    expect(await getDb()`select id from templates where owner_account_id = ${author.accountId}`).toEqual([]);
  });
});

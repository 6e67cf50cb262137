import { beforeAll, describe, expect, it, vi } from "vitest";
import { createTemplateAction } from "@/app/dashboard/actions";
import { getAccountByIdOrThrow } from "@/lib/db/accounts";
import { getDb } from "@/lib/db/client";
import { recordRateLimitHits } from "@/lib/db/rate-limits";
import { PREVIEW_LIMITS } from "@/lib/limits";
import { createUser, type TestUser } from "./support/api";

// Saving a template in the editor compiles it and renders it once in the sandbox: it counts as a dashboard preview.
const signedIn = vi.hoisted(() => ({ accountId: "" }));
vi.mock("next/headers", () => import("./support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => ({ requireAccount: () => getAccountByIdOrThrow(signedIn.accountId) }));

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
`;

let user: TestUser;
beforeAll(async () => {
  user = await createUser("annual");
  signedIn.accountId = user.accountId;
});

describe("saving a template in the dashboard", () => {
  it("is refused past the account's preview limit, with the limit's message, and stores nothing", async () => {
    const bucket = `preview:account:${user.accountId}`;
    // Stay inside one window: wait out one about to end.
    const msLeft = PREVIEW_LIMITS.windowSeconds * 1000 - (Date.now() % (PREVIEW_LIMITS.windowSeconds * 1000));
    if (msLeft < 5_000) await new Promise((resolve) => setTimeout(resolve, msLeft + 100));
    const [{ hits }] = await recordRateLimitHits([bucket], PREVIEW_LIMITS.windowSeconds);
    await getDb()`update rate_limit_windows set hits = ${PREVIEW_LIMITS.perAccount} where bucket = ${bucket} and hits = ${hits}`;

    const form = new FormData();
    form.set("name", "Over the limit");
    form.set("description", "");
    form.set("code", HELLO);
    const result = await createTemplateAction({ status: "idle" }, form);
    expect(result).toEqual({
      status: "error",
      message: expect.stringMatching(
        new RegExp(
          `^Dashboard previews are limited to ${PREVIEW_LIMITS.perAccount} a minute per account\\. Try again in \\d+ seconds?\\.$`,
        ),
      ),
      values: { name: "Over the limit", description: "" },
    });
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);
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
      message: "Syntax error: Error transforming template.tsx: Unexpected token",
      line: 2,
      column: 15,
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
      message: "Syntax error: Error transforming components/footer.tsx: Unexpected token",
      line: 2,
      column: 13,
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
});

import { readFileSync } from "node:fs";
/**
 * The dashboard's "Download": a zip of a template's files, for templates in the caller's library and public free
 * catalogue templates; anything else 404 as if it did not exist.
 */
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { GET as getDownload } from "@/app/api/dashboard/templates/[id]/download/route";
import { findCatalogueTemplate } from "@/lib/catalogue/data/catalogue";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import { addToLibrary, auth, BASE, call, catalogueId, createUser, sessionCookie, type TestUser } from "../support/api";
import { readZip } from "../support/zip";

const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };

const FILES = {
  "components/footer.tsx": `import { Text } from "@react-email/components";
export function Footer() {
  return <Text>The Acme team — à bientôt</Text>;
}
`,
  "email.tsx": `import { Html, Text } from "@react-email/components";
import { Footer } from "./components/footer";
export default function Welcome({ name = "there" }: { name?: string }) {
  return <Html><Text>Welcome, {name}</Text><Footer /></Html>;
}
Welcome.PreviewProps = { name: "Ada" };
`,
};

const ONE_FILE = `import { Html, Text } from "@react-email/components";
export default function Invoice() {
  return <Html><Text>Invoice</Text></Html>;
}
`;

const download = async (user: TestUser, id: string, headers?: Record<string, string>) => {
  const cookie = await sessionCookie(user.accountId);
  return call(getDownload, `/api/dashboard/templates/${id}/download`, {
    headers: headers ?? { cookie, origin: BASE },
    params: { id },
  });
};

/** The answer's status, type and file name, and the zip's files as text in the archive's order. */
async function filesOf(user: TestUser, id: string) {
  const cookie = await sessionCookie(user.accountId);
  const response = await getDownload(
    new NextRequest(new URL(`/api/dashboard/templates/${id}/download`, BASE), {
      headers: { cookie, origin: BASE },
    }),
    { params: Promise.resolve({ id }) },
  );
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    disposition: response.headers.get("content-disposition"),
    files: readZip(Buffer.from(await response.arrayBuffer())).map(({ path, data }) => [path, data.toString("utf8")]),
  };
}

describe("GET /api/dashboard/templates/{id}/download", () => {
  it("zips every file of the caller's own template at its path, the entry first", async () => {
    const user = await createUser("monthly");
    const created = await createTemplateFromSource(user.accountId, {
      name: "Welcome, team!",
      description: "",
      files: FILES,
      entry: "email.tsx",
    });
    expect(await filesOf(user, created.id)).toEqual({
      status: 200,
      type: "application/zip",
      disposition: 'attachment; filename="welcome-team.zip"',
      files: [
        ["email.tsx", FILES["email.tsx"]],
        ["components/footer.tsx", FILES["components/footer.tsx"]],
      ],
    });
  });

  it("zips a template of one file as <name>.tsx", async () => {
    const user = await createUser("monthly");
    const created = await createTemplateFromSource(user.accountId, {
      name: "Invoice",
      description: "",
      code: ONE_FILE,
    });
    expect(await filesOf(user, created.id)).toEqual({
      status: 200,
      type: "application/zip",
      disposition: 'attachment; filename="invoice.zip"',
      files: [["invoice.tsx", ONE_FILE]],
    });
  });

  it("zips a free catalogue template, in the library or not, and a paid one bought, its messages beside it", async () => {
    const user = await createUser("monthly");
    const welcome = (await findCatalogueTemplate("welcome"))!;
    const receipt = (await findCatalogueTemplate("receipt"))!;
    // The component importing ./messages/<tag>.json, then each locale's file: what a user template is saved from.
    const localized = (slug: string, code: string) => [
      [`${slug}.tsx`, code.replaceAll(`"./_messages/${slug}/`, '"./messages/')],
      ...["de", "en", "es", "fr", "pt-BR"].map((tag) => [
        `messages/${tag}.json`,
        `${JSON.stringify(JSON.parse(readFileSync(`emails/_messages/${slug}/${tag}.json`, "utf8")), null, 2)}\n`,
      ]),
    ];
    expect(welcome.code).toContain('from "./_messages/welcome/fr.json"');
    expect(await filesOf(user, welcome.id)).toEqual({
      status: 200,
      type: "application/zip",
      disposition: 'attachment; filename="welcome.zip"',
      files: localized("welcome", welcome.code),
    });
    await addToLibrary(user, "receipt");
    expect(await filesOf(user, receipt.id)).toEqual({
      status: 200,
      type: "application/zip",
      disposition: 'attachment; filename="receipt.zip"',
      files: localized("receipt", receipt.code),
    });
    const verify = (await findCatalogueTemplate("verify-email"))!;
    expect(await filesOf(user, verify.id)).toEqual({
      status: 200,
      type: "application/zip",
      disposition: 'attachment; filename="verify-email.zip"',
      files: [["verify-email.tsx", verify.code]],
    });
  });

  it("answers 404 for another account's template, a paid catalogue template not bought, and an id that is not one", async () => {
    const owner = await createUser("monthly");
    const other = await createUser("monthly");
    const own = await createTemplateFromSource(owner.accountId, { name: "Mine", description: "", files: FILES });
    for (const id of [own.id, await catalogueId("receipt"), "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const answer = await download(other, id);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    }
  });

  it("is for the dashboard's session only: an API key gets 401", async () => {
    const user = await createUser("monthly");
    const answer = await download(user, await catalogueId("welcome"), auth(user));
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 401,
      body: { error: "Authentication required", code: "UNAUTHORIZED", success: false },
    });
  });
});

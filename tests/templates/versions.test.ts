import { describe, expect, it } from "vitest";
import { POST as postPublish } from "@/app/api/v1/templates/[id]/publish/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { DELETE as deleteTemplate, GET as getTemplate, PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRestore } from "@/app/api/v1/templates/[id]/versions/[n]/restore/route";
import { GET as getVersion } from "@/app/api/v1/templates/[id]/versions/[n]/route";
import { GET as listVersions } from "@/app/api/v1/templates/[id]/versions/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { GET as listEmails } from "@/app/api/v1/emails/route";
import { POST as postSendBatch } from "@/app/api/v1/send/batch/route";
import { POST as postSend } from "@/app/api/v1/send/route";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApiKey } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { listVersions as listVersionRows } from "@/lib/templates/data/versions";
import { admin } from "../support/admin";
import {
  auth,
  BASE,
  call,
  catalogueId,
  createUser,
  ISO,
  sender,
  sessionCookie,
  type Sender,
  type TestUser,
} from "../support/api";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** Version n of a template: its text says which, and its props type differs from every other version's. */
const sourceOf = (n: number) => `export default function E({ v${n} }: { v${n}: string }) {
  return <p>Version ${n}: {v${n}}</p>;
}
E.PreviewProps = { v${n}: "Ada" };
`;
const filesOf = (n: number) => ({ "email.tsx": sourceOf(n) });
const variablesOf = (n: number) => ({
  $schema: DIALECT,
  type: "object",
  properties: { [`v${n}`]: { type: "string" } },
  required: [`v${n}`],
  additionalProperties: true,
});

const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };
const NO_DRAFT = {
  error: "No draft to publish",
  code: "NO_DRAFT",
  success: false,
  message: "This template has no draft to publish",
};
const versionNotFound = (n: number | "draft") => ({
  error: "Template version not found",
  code: "VERSION_NOT_FOUND",
  success: false,
  message: n === "draft" ? "This template has no draft" : `This template has no version ${n}`,
});
const BAD_VERSION = [{ field: "version", message: 'version must be a version number (a positive integer) or "draft"' }];
const invalid = (details: { field: string; message: string }[]) => ({
  status: 400,
  body: { error: "Invalid request body", code: "VALIDATION_ERROR", success: false, details },
});

const outcome = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

const create = (user: TestUser, body: Record<string, unknown>) =>
  call(postTemplate, "/api/v1/templates", { method: "POST", headers: auth(user), body: { name: "Mine", ...body } });
const replace = (user: TestUser, id: string, body: Record<string, unknown>) =>
  call(putTemplate, "/x", { method: "PUT", params: { id }, headers: auth(user), body: { name: "Mine", ...body } });
const publish = (user: TestUser, id: string, body: unknown = {}) =>
  call(postPublish, "/x", { method: "POST", params: { id }, headers: auth(user), body });
const versions = (user: TestUser, id: string, query = "") =>
  call(listVersions, `/x${query}`, { params: { id }, headers: auth(user) });
const version = (user: TestUser, id: string, n: string) =>
  call(getVersion, "/x", { params: { id, n }, headers: auth(user) });
const restore = (user: TestUser, id: string, n: string, body: unknown = {}) =>
  call(postRestore, "/x", { method: "POST", params: { id, n }, headers: auth(user), body });
const details = (user: TestUser, id: string) => call(getTemplate, "/x", { params: { id }, headers: auth(user) });
const render = (user: TestUser, id: string, body: Record<string, unknown>) =>
  call(postRender, "/x", { method: "POST", params: { id }, headers: auth(user), body });

/** A version as the API lists it: a template of one file is stored as one file, whatever its name was. */
const listed = (n: number, fields: { created_at?: unknown; variables?: unknown } = {}) => ({
  version: n,
  created_at: ISO,
  published_at: ISO,
  entry: "template.tsx",
  variables: variablesOf(n),
  ...fields,
});

async function draftOf(id: string) {
  const [row] = await getDb()<{ revision: number; updated_at: Date }[]>`
    select revision, updated_at from template_drafts where template_id = ${id}`;
  return row ? { revision: row.revision, updated_at: row.updated_at.toISOString() } : null;
}

/** A template published as versions 1 to `count`, each saved by PUT (the first by POST). */
async function publishedVersions(user: TestUser, count: number): Promise<string> {
  const id = (await create(user, { files: filesOf(1) })).body.template.id;
  for (let n = 2; n <= count; n++) expect((await replace(user, id, { files: filesOf(n) })).status).toBe(200);
  return id;
}

describe("POST /templates and PUT /templates/{id} with publish", () => {
  it("publishes version 1 on creation, and each PUT as the next version", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 2);
    expect((await details(user, id)).body.template).toMatchObject({ version: 2, draft: null });
    expect(outcome(await versions(user, id))).toEqual({
      status: 200,
      body: {
        success: true,
        versions: [listed(2), listed(1)],
        draft: null,
        pagination: { limit: 50, offset: 0, total: 2 },
      },
    });
  });

  it("with publish false creates only a draft: it renders, and has no version yet", async () => {
    const user = await createUser("monthly");
    const created = await create(user, { files: filesOf(1), publish: false });
    expect(created.status).toBe(201);
    const { id } = created.body.template;
    const draft = { revision: 1, updated_at: ISO };
    expect(created.body.template).toMatchObject({ version: null, draft, variables: variablesOf(1) });
    expect(outcome(await versions(user, id))).toEqual({
      status: 200,
      body: { success: true, versions: [], draft, pagination: { limit: 50, offset: 0, total: 0 } },
    });
    expect((await render(user, id, { variables: { v1: "Grace" } })).body.html).toContain("Version 1: <!-- -->Grace");
  });

  it("PUT with publish false replaces the draft and leaves the published version rendering", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    const saved = await replace(user, id, { name: "Renamed", files: filesOf(2), publish: false });
    expect(saved.status).toBe(200);
    expect(saved.body.template).toMatchObject({
      name: "Renamed",
      version: 1,
      draft: { revision: 1, updated_at: ISO },
      variables: variablesOf(1),
    });
    const again = await replace(user, id, { files: filesOf(3), publish: false });
    expect(again.body.template.draft).toEqual(await draftOf(id));
    expect(again.body.template.draft.revision).toBe(2);
    expect((await render(user, id, { variables: { v1: "Grace" } })).body.html).toContain("Version 1: <!-- -->Grace");
    expect((await versions(user, id)).body.versions).toEqual([listed(1)]);
  });

  it("refuses a publish that is not a boolean", async () => {
    const user = await createUser("monthly");
    expect(outcome(await create(user, { files: filesOf(1), publish: "no" }))).toEqual(
      invalid([{ field: "publish", message: "publish must be a boolean" }]),
    );
  });
});

describe("POST /templates/{id}/publish", () => {
  it("makes the draft the next version, which renders by default from then on", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    await replace(user, id, { files: filesOf(2), publish: false });
    const draftSavedAt = (await draftOf(id))!.updated_at;
    const published = await publish(user, id, { revision: 1 });
    expect(outcome(published)).toEqual({
      status: 200,
      body: { success: true, version: listed(2, { created_at: draftSavedAt }) },
    });
    expect((await details(user, id)).body.template).toMatchObject({
      version: 2,
      draft: null,
      variables: variablesOf(2),
    });
    expect((await render(user, id, { variables: { v2: "Grace" } })).body.html).toContain("Version 2: <!-- -->Grace");
  });

  it("publishes a template's first draft as version 1", async () => {
    const user = await createUser("monthly");
    const { id } = (await create(user, { files: filesOf(1), publish: false })).body.template;
    expect(outcome(await publish(user, id))).toEqual({ status: 200, body: { success: true, version: listed(1) } });
    expect((await details(user, id)).body.template).toMatchObject({ version: 1, draft: null });
  });

  it("answers the latest version, publishing nothing new, for a draft the same as it", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 2);
    await replace(user, id, { files: filesOf(2), publish: false });
    expect(outcome(await publish(user, id))).toEqual({ status: 200, body: { success: true, version: listed(2) } });
    expect((await versions(user, id)).body.pagination.total).toBe(2);
    expect((await details(user, id)).body.template.draft).toBeNull();
  });

  it("answers 409 NO_DRAFT without a draft, and 409 TEMPLATE_REVISION_MISMATCH for a draft saved since", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    expect(outcome(await publish(user, id))).toEqual({ status: 409, body: NO_DRAFT });
    await replace(user, id, { files: filesOf(2), publish: false });
    await replace(user, id, { files: filesOf(3), publish: false });
    expect(outcome(await publish(user, id, { revision: 1 }))).toEqual({
      status: 409,
      body: {
        error: "Template draft revision mismatch",
        code: "TEMPLATE_REVISION_MISMATCH",
        success: false,
        message: "The draft is at revision 2, not 1: it was saved again since. Read it and publish again.",
      },
    });
    expect((await versions(user, id)).body.versions).toEqual([listed(1)]);
    expect(await draftOf(id)).toMatchObject({ revision: 2 });
  });

  it("refuses a revision that is not a positive integer, and unknown fields", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    expect(outcome(await publish(user, id, { revision: "1" }))).toEqual(
      invalid([{ field: "revision", message: "revision must be an integer" }]),
    );
    expect(outcome(await publish(user, id, { revision: 0 }))).toEqual(
      invalid([{ field: "revision", message: "revision must be at least 1" }]),
    );
    expect(outcome(await publish(user, id, { revision: 2 ** 31 }))).toEqual(
      invalid([{ field: "revision", message: "revision must be at most 2147483647" }]),
    );
    expect(outcome(await publish(user, id, { version: 1 }))).toEqual(
      invalid([{ field: "version", message: "version is not a recognised field" }]),
    );
  });

  it("of six publishes of one draft at once, makes one version; each answers it", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    await replace(user, id, { files: filesOf(2), publish: false });
    const answers = await Promise.all(Array.from({ length: 6 }, () => publish(user, id, { revision: 1 })));
    expect(answers.map(outcome)).toEqual(
      Array.from({ length: 6 }, () => ({ status: 200, body: { success: true, version: listed(2) } })),
    );
    expect((await versions(user, id)).body.versions).toEqual([listed(2), listed(1)]);
  });

  it("never loses a draft saved while it is published: it is the version published, or the draft after it", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    await replace(user, id, { files: filesOf(2), publish: false });
    const [saved, published] = await Promise.all([
      replace(user, id, { files: filesOf(3), publish: false }),
      publish(user, id),
    ]);
    expect([saved.status, published.status]).toEqual([200, 200]);
    const { files } = (await version(user, id, String(published.body.version.version))).body.version;
    const draft = (await getDb()<{ code: string }[]>`select code from template_drafts where template_id = ${id}`).map(
      (row) => row.code,
    );
    // Saved first: the save is what was published, no draft left. Published first: the save is the draft after it.
    expect({ published: files["template.tsx"], draft }).toEqual(
      files["template.tsx"] === sourceOf(3)
        ? { published: sourceOf(3), draft: [] }
        : { published: sourceOf(2), draft: [sourceOf(3)] },
    );
  });

  it("answers 404 for a catalogue template, another account's and an id that is no template", async () => {
    const user = await createUser("monthly");
    const other = await createUser("monthly");
    const theirs = (await create(other, { files: filesOf(1), publish: false })).body.template.id;
    for (const id of [await catalogueId("welcome"), theirs, "nope"]) {
      expect(outcome(await publish(user, id))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    }
    expect(await draftOf(theirs)).toMatchObject({ revision: 1 });
  });
});

describe("GET /templates/{id}/versions and /versions/{n}", () => {
  it("lists the versions newest first, a page at a time, and the draft", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 3);
    await replace(user, id, { files: filesOf(4), publish: false });
    expect(outcome(await versions(user, id, "?limit=2&offset=1"))).toEqual({
      status: 200,
      body: {
        success: true,
        versions: [listed(2), listed(1)],
        draft: await draftOf(id),
        pagination: { limit: 2, offset: 1, total: 3 },
      },
    });
    expect(outcome(await versions(user, id, "?limit=0"))).toEqual({
      status: 400,
      body: {
        ...invalid([]).body,
        error: "Invalid query parameters",
        details: [{ field: "limit", message: "limit must be an integer from 1 to 100" }],
      },
    });
  });

  it("answers one version with its files, those of several files by their paths", async () => {
    const user = await createUser("monthly");
    const files = {
      "email.tsx": `import { Line } from "./line";\nexport default function E() { return <Line />; }\n`,
      "line.tsx": "export function Line() { return <p>Hi</p>; }\n",
    };
    const { id } = (await create(user, { files })).body.template;
    expect(outcome(await version(user, id, "1"))).toEqual({
      status: 200,
      body: {
        success: true,
        version: {
          version: 1,
          created_at: ISO,
          published_at: ISO,
          entry: "email.tsx",
          variables: expect.objectContaining({ type: "object" }),
          files,
        },
      },
    });
  });

  it("answers 404 VERSION_NOT_FOUND for a version the template lacks, 400 for one that is no number", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    expect(outcome(await version(user, id, "2"))).toEqual({ status: 404, body: versionNotFound(2) });
    for (const n of ["0", "01", "1.5", "x", "-1", "2147483648", "9".repeat(400)]) {
      expect([n, outcome(await version(user, id, n))]).toEqual([
        n,
        invalid([{ field: "n", message: "must be a version number: an integer from 1" }]),
      ]);
    }
  });

  it("answers 404 for a catalogue template, another account's, and a deleted one (its versions went with it)", async () => {
    const user = await createUser("monthly");
    const other = await createUser("monthly");
    const theirs = await publishedVersions(other, 1);
    for (const id of [await catalogueId("welcome"), theirs, "nope"]) {
      expect(outcome(await versions(user, id))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
      expect(outcome(await version(user, id, "1"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    }
    const mine = await publishedVersions(user, 1);
    await replace(user, mine, { files: filesOf(2), publish: false });
    await call(deleteTemplate, "/x", { method: "DELETE", params: { id: mine }, headers: auth(user) });
    expect(outcome(await versions(user, mine))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    const left = await getDb()`
      select (select count(*)::int from template_versions where template_id = ${mine}) as versions,
             (select count(*)::int from template_drafts where template_id = ${mine}) as drafts`;
    expect(left).toEqual([{ versions: 0, drafts: 0 }]);
  });
});

describe("POST /templates/{id}/versions/{n}/restore", () => {
  it("copies a version into the draft; what sends use is untouched until it is published", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 2);
    const restored = await restore(user, id, "1");
    expect(outcome(restored)).toEqual({ status: 200, body: { success: true, draft: await draftOf(id) } });
    // Draft saves take revisions; a published PUT goes straight to a version.
    expect(restored.body.draft.revision).toBe(1);
    expect((await details(user, id)).body.template).toMatchObject({ version: 2, variables: variablesOf(2) });
    expect(outcome(await publish(user, id, { revision: 1 }))).toEqual({
      status: 200,
      body: { success: true, version: listed(3, { variables: variablesOf(1) }) },
    });
    expect((await version(user, id, "3")).body.version.files).toEqual({ "template.tsx": sourceOf(1) });
  });

  it("with publish true publishes it at once as the next version", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 2);
    expect(outcome(await restore(user, id, "1", { publish: true }))).toEqual({
      status: 200,
      body: { success: true, draft: null, version: listed(3, { variables: variablesOf(1) }) },
    });
    expect((await render(user, id, { variables: { v1: "Grace" } })).body.html).toContain("Version 1: <!-- -->Grace");
  });

  it("answers 404 VERSION_NOT_FOUND, 400 for a bad n or publish, and 404 for a template not yours", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    expect(outcome(await restore(user, id, "5"))).toEqual({ status: 404, body: versionNotFound(5) });
    expect(outcome(await restore(user, id, "one"))).toEqual(
      invalid([{ field: "n", message: "must be a version number: an integer from 1" }]),
    );
    expect(outcome(await restore(user, id, "1", { publish: "yes" }))).toEqual(
      invalid([{ field: "publish", message: "publish must be a boolean" }]),
    );
    expect(await draftOf(id)).toBeNull();
    const other = await createUser("monthly");
    expect(outcome(await restore(other, id, "1"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(await draftOf(id)).toBeNull();
  });
});

describe("render and send in a version", () => {
  it("renders version 1 after version 5 is published: its HTML byte for byte, its variables checked by its schema", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    const first = await render(user, id, { variables: { v1: "Grace" } });
    expect(first.status).toBe(200);
    for (let n = 2; n <= 5; n++) await replace(user, id, { files: filesOf(n) });
    expect((await render(user, id, { variables: { v5: "Grace" } })).body.html).toContain("Version 5: <!-- -->Grace");
    expect(outcome(await render(user, id, { version: 1, variables: { v1: "Grace" } }))).toEqual(outcome(first));
    expect(outcome(await render(user, id, { version: 1, variables: { v5: "Grace" } }))).toEqual(
      invalid([{ field: "variables.v1", message: "is required" }]),
    );
    const react = await render(user, id, { version: 1, format: "react", variables: { v1: "Grace" } });
    expect(react.body.react).toContain("Version 1:");
  });

  it("renders the draft with any key, and answers 404 VERSION_NOT_FOUND for a version or draft it lacks", async () => {
    const user = await createUser("monthly");
    const id = await publishedVersions(user, 1);
    expect(outcome(await render(user, id, { version: "draft", variables: {} }))).toEqual({
      status: 404,
      body: versionNotFound("draft"),
    });
    await replace(user, id, { files: filesOf(2), publish: false });
    const draft = await render(user, id, { version: "draft", variables: { v2: "Grace" } });
    expect(draft.body.html).toContain("Version 2: <!-- -->Grace");
    // The draft saved again renders its new content, not the warm context of the old one.
    await replace(user, id, { files: filesOf(3), publish: false });
    expect((await render(user, id, { version: "draft", variables: { v3: "Grace" } })).body.html).toContain(
      "Version 3: <!-- -->Grace",
    );
    expect(outcome(await render(user, id, { version: 2, variables: {} }))).toEqual({
      status: 404,
      body: versionNotFound(2),
    });
    for (const version of ["1", 0, 1.5, 2 ** 31, null]) {
      expect(outcome(await render(user, id, { version, variables: {} }))).toEqual(invalid(BAD_VERSION));
    }
  });

  it("renders a catalogue template as its version 1, and has no other", async () => {
    const user = await createUser("monthly");
    const welcome = await catalogueId("welcome");
    const byDefault = await render(user, welcome, { variables: {} });
    expect(outcome(await render(user, welcome, { version: 1, variables: {} }))).toEqual(outcome(byDefault));
    expect(outcome(await render(user, welcome, { version: 2, variables: {} }))).toEqual({
      status: 404,
      body: versionNotFound(2),
    });
    expect(outcome(await render(user, welcome, { version: "draft", variables: {} }))).toEqual({
      status: 404,
      body: versionNotFound("draft"),
    });
  });

  it("does not render another account's template in any version", async () => {
    const user = await createUser("monthly");
    const other = await createUser("monthly");
    const theirs = await publishedVersions(other, 1);
    await replace(other, theirs, { files: filesOf(2), publish: false });
    for (const version of [1, "draft"]) {
      expect(outcome(await render(user, theirs, { version, variables: {} }))).toEqual({
        status: 404,
        body: TEMPLATE_NOT_FOUND,
      });
    }
  });

  const send = (user: TestUser, key: string, body: Record<string, unknown>) =>
    call(postSend, "/api/v1/send", {
      method: "POST",
      headers: { "x-api-key": key },
      body: { to: "ann@example.com", subject: "Hi", ...body },
    });
  const emailOf = async (user: Sender, id: string) =>
    (await call(getEmail, "/x", { params: { id }, headers: auth(user) })).body.email;

  it("sends the published version by default and a named version when asked; each email records its version", async () => {
    const user = await sender();
    const id = await publishedVersions(user, 2);
    const from = `hello@${user.domain}`;
    const latest = await send(user, user.key, { template_id: id, from, variables: { v2: "Grace" } });
    const first = await send(user, user.key, { template_id: id, from, version: 1, variables: { v1: "Grace" } });
    const welcome = await send(user, user.key, { template_id: user.welcomeId, from });
    expect([latest.status, first.status, welcome.status]).toEqual([200, 200, 200]);
    expect((await emailOf(user, latest.body.data.id)).template_version).toBe(2);
    expect((await emailOf(user, first.body.data.id)).template_version).toBe(1);
    expect((await emailOf(user, welcome.body.data.id)).template_version).toBe(1);
    const listed = (await call(listEmails, "/api/v1/emails", { headers: auth(user) })).body.emails;
    expect(listed.map((email: { template_version: unknown }) => email.template_version)).toEqual([1, 1, 2]);
    const [html] = await getDb()<{ html: string }[]>`select html from sent_emails where subject = 'Hi'
      and account_id = ${user.accountId} and template_version = '1' and template_id = ${id}`;
    expect(html.html).toContain("Version 1: <!-- -->Grace");
    expect(outcome(await send(user, user.key, { template_id: id, from, version: 3, variables: {} }))).toEqual({
      status: 404,
      body: versionNotFound(3),
    });
  });

  it("refuses a live send of a template that has only a draft (409), and a draft with a live key (400)", async () => {
    const user = await sender();
    const from = `hello@${user.domain}`;
    const { id } = (await create(user, { files: filesOf(1), publish: false })).body.template;
    expect(outcome(await send(user, user.key, { template_id: id, from, variables: { v1: "Grace" } }))).toEqual({
      status: 409,
      body: {
        error: "Template not published",
        code: "TEMPLATE_NOT_PUBLISHED",
        success: false,
        message:
          'This template has a draft and no published version yet: publish it first (POST /templates/{id}/publish), or send its draft with a test key ("version": "draft").',
      },
    });
    expect(
      outcome(await send(user, user.key, { template_id: id, from, version: "draft", variables: { v1: "Grace" } })),
    ).toEqual(
      invalid([
        {
          field: "version",
          message: 'version "draft" may be sent only with a test key (lp_test_…); publish the draft to send it',
        },
      ]),
    );
    const batch = await call(postSendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: auth(user),
      body: {
        emails: [
          { template_id: user.welcomeId, from, to: "ann@example.com", subject: "Hi" },
          { template_id: id, from, to: "ann@example.com", subject: "Hi", version: "draft", variables: { v1: "G" } },
        ],
      },
    });
    expect(outcome(batch)).toEqual(
      invalid([
        {
          field: "emails.1.version",
          message: 'version "draft" may be sent only with a test key (lp_test_…); publish the draft to send it',
        },
      ]),
    );
    const batchOf = (item: Record<string, unknown>) =>
      call(postSendBatch, "/api/v1/send/batch", {
        method: "POST",
        headers: auth(user),
        body: { emails: [{ template_id: id, from, to: "ann@example.com", subject: "Hi", ...item }] },
      });
    expect(outcome(await batchOf({ variables: { v1: "G" } }))).toEqual({
      status: 409,
      body: {
        error: "Template not published",
        code: "TEMPLATE_NOT_PUBLISHED",
        success: false,
        message:
          'This template has a draft and no published version yet: publish it first (POST /templates/{id}/publish), or send its draft with a test key ("version": "draft").',
        details: [
          {
            field: "emails.0.template_id",
            message:
              'This template has a draft and no published version yet: publish it first (POST /templates/{id}/publish), or send its draft with a test key ("version": "draft").',
          },
        ],
      },
    });
    expect(outcome(await batchOf({ version: 1 }))).toEqual({
      status: 404,
      body: {
        ...versionNotFound(1),
        details: [{ field: "emails.0.version", message: "This template has no version 1" }],
      },
    });
    const [{ count }] = await getDb()`select count(*)::int from sent_emails where account_id = ${user.accountId}`;
    expect(count).toBe(0);
  });

  it('sends a draft with a test key, and the email records "draft"', async () => {
    const user = await sender();
    const from = `hello@${user.domain}`;
    const testKey = (await createApiKey(user.accountId, { name: "preview", kind: "test" })).key;
    const id = await publishedVersions(user, 1);
    await replace(user, id, { files: filesOf(2), publish: false });
    const sent = await send(user, testKey, { template_id: id, from, version: "draft", variables: { v2: "Grace" } });
    expect(sent.status).toBe(200);
    expect(await emailOf(user, sent.body.data.id)).toMatchObject({ template_version: "draft", test: true });
    const batch = await call(postSendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: { "x-api-key": testKey },
      body: {
        emails: [
          { template_id: id, from, to: "ann@example.com", subject: "A", version: "draft", variables: { v2: "G" } },
          { template_id: id, from, to: "bob@example.com", subject: "B", variables: { v1: "G" } },
        ],
      },
    });
    expect(batch.status).toBe(200);
    const recorded = await getDb()<{ subject: string; template_version: string; html: string }[]>`
      select subject, template_version, html from sent_emails where account_id = ${user.accountId} and batch_id is not null
      order by subject`;
    expect(recorded.map(({ subject, template_version: version }) => [subject, version])).toEqual([
      ["A", "draft"],
      ["B", "1"],
    ]);
    expect(recorded[0].html).toContain("Version 2: <!-- -->G");
    expect(recorded[1].html).toContain("Version 1: <!-- -->G");
  });
});

describe("who published each version", () => {
  it("is recorded: an API key by its name, a signed-in session, the admin CLI; and shown in the dashboard's list", async () => {
    const user = await createUser("monthly");
    const id = (await create(user, { files: filesOf(1) })).body.template.id;
    const signedIn = { cookie: await sessionCookie(user.accountId), origin: BASE };
    const bySession = await call(putTemplate, "/x", {
      method: "PUT",
      params: { id },
      headers: signedIn,
      body: { name: "Mine", files: filesOf(2) },
    });
    expect(bySession.status).toBe(200);
    const file = path.join(await mkdtemp(path.join(tmpdir(), "letterpress-who-")), "email.tsx");
    await writeFile(file, sourceOf(3));
    await admin(["template:update", "--email", user.email, "--id", id, "--file", file]);
    expect(outcome(await restore(user, id, "1", { publish: true }))).toMatchObject({ status: 200 });

    const page = await listVersionRows(user.accountId, id, 10, 0);
    expect(page!.versions.map((row) => [row.version, row.published_via, row.published_by_key])).toEqual([
      [4, "api_key", "test key"],
      [3, "cli", null],
      [2, "session", null],
      [1, "api_key", "test key"],
    ]);
  });
});

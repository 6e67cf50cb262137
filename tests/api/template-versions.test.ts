import { describe, expect, it } from "vitest";
import { POST as postPublish } from "@/app/api/v1/templates/[id]/publish/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { DELETE as deleteTemplate, GET as getTemplate, PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRestore } from "@/app/api/v1/templates/[id]/versions/[n]/restore/route";
import { GET as getVersion } from "@/app/api/v1/templates/[id]/versions/[n]/route";
import { GET as listVersions } from "@/app/api/v1/templates/[id]/versions/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { getDb } from "@/lib/db/client";
import { auth, call, catalogueId, createUser, ISO, type TestUser } from "../support/api";

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
const versionNotFound = (n: number) => ({
  error: "Template version not found",
  code: "VERSION_NOT_FOUND",
  success: false,
  message: `This template has no version ${n}`,
});
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
    // Every save took a revision, the published ones too: version 2's PUT was revision 1.
    expect(restored.body.draft.revision).toBe(2);
    expect((await details(user, id)).body.template).toMatchObject({ version: 2, variables: variablesOf(2) });
    expect(outcome(await publish(user, id, { revision: 2 }))).toEqual({
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

import { describe, expect, it } from "vitest";
import {
  GET as getComponent,
  PUT as putComponent,
  DELETE as deleteComponent,
} from "@/app/api/v1/components/[name]/route";
import { GET as listComponents, POST as postComponent } from "@/app/api/v1/components/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { POST as postPublish } from "@/app/api/v1/templates/[id]/publish/route";
import { DELETE as deleteTemplate, GET as getTemplate, PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRestore } from "@/app/api/v1/templates/[id]/versions/[n]/restore/route";
import { GET as getVersion } from "@/app/api/v1/templates/[id]/versions/[n]/route";
import { GET as listVersions } from "@/app/api/v1/templates/[id]/versions/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { getDb } from "@/lib/db/client";
import { PinnedComponentChanged } from "@/lib/components/sources";
import { findOwnDraft } from "@/lib/templates/data/drafts";
import { publishDraft } from "@/lib/templates/data/versions";
import { auth, call, createUser, ISO, type TestUser } from "../support/api";
import { footer, RECEIPT as TEMPLATE } from "../support/components";

const create = (user: TestUser, body: Record<string, unknown>) =>
  call(postComponent, "/api/v1/components", { method: "POST", headers: auth(user), body });
const update = (user: TestUser, name: string, body: Record<string, unknown>) =>
  call(putComponent, "/x", { method: "PUT", params: { name }, headers: auth(user), body });
const read = (user: TestUser, name: string) => call(getComponent, "/x", { params: { name }, headers: auth(user) });
const remove = (user: TestUser, name: string) =>
  call(deleteComponent, "/x", { method: "DELETE", params: { name }, headers: auth(user) });
const list = (user: TestUser) => call(listComponents, "/api/v1/components", { headers: auth(user) });
const createTemplate = (user: TestUser, files: Record<string, string>, publish = true) =>
  call(postTemplate, "/api/v1/templates", {
    method: "POST",
    headers: auth(user),
    body: { name: "Receipt", files, publish },
  });
const render = (user: TestUser, id: string, body: Record<string, unknown> = {}) =>
  call(postRender, "/x", { method: "POST", params: { id }, headers: auth(user), body });
const versions = (user: TestUser, id: string) => call(listVersions, "/x", { params: { id }, headers: auth(user) });
const version = (user: TestUser, id: string, n: string) =>
  call(getVersion, "/x", { params: { id, n }, headers: auth(user) });
const details = (user: TestUser, id: string) => call(getTemplate, "/x", { params: { id }, headers: auth(user) });
const outcome = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

const componentBody = (files: Record<string, string>, fields: Record<string, unknown> = {}) => ({
  name: "footer",
  description: "",
  version: 1,
  files,
  entry: "index.tsx",
  used_by: [],
  draft: null,
  created_at: ISO,
  updated_at: ISO,
  ...fields,
});
const invalid = (details: { field: string; message: string }[]) => ({
  status: 400,
  body: { error: "Invalid request body", code: "VALIDATION_ERROR", success: false, details },
});
const NOT_FOUND = (name: string) => ({
  status: 404,
  body: {
    error: "Component not found",
    code: "COMPONENT_NOT_FOUND",
    success: false,
    message: `You have no component named "${name}".`,
  },
});

describe("/components", () => {
  it("creates, lists, reads and versions a component; a second of the same name is refused", async () => {
    const user = await createUser("monthly");
    const created = await create(user, { name: "footer", description: "Legal text", files: footer("v1") });
    expect(outcome(created)).toEqual({
      status: 201,
      body: { success: true, component: componentBody(footer("v1"), { description: "Legal text" }) },
    });
    expect(outcome(await create(user, { name: "footer", files: footer("again") }))).toEqual({
      status: 409,
      body: {
        error: "Component exists",
        code: "COMPONENT_EXISTS",
        success: false,
        message:
          'You have a component named "footer" already: PUT /api/v1/components/footer saves a new version of it.',
      },
    });
    const updated = await update(user, "footer", { files: footer("v2") });
    expect(outcome(updated)).toEqual({
      status: 200,
      body: {
        success: true,
        component: componentBody(footer("v2"), { description: "Legal text", version: 2 }),
        republished: [],
      },
    });
    expect(outcome(await read(user, "footer"))).toEqual({
      status: 200,
      body: { success: true, component: updated.body.component },
    });
    expect(outcome(await list(user))).toEqual({
      status: 200,
      body: { success: true, components: [componentBody(footer("v2"), { description: "Legal text", version: 2 })] },
    });
    expect(outcome(await read(user, "header"))).toEqual(NOT_FOUND("header"));
    expect(outcome(await update(user, "header", { files: footer("x") }))).toEqual(NOT_FOUND("header"));
    expect(outcome(await remove(user, "header"))).toEqual(NOT_FOUND("header"));
  });

  it("refuses a bad name, messages files, a file that does not compile, an unknown import and a cycle", async () => {
    const user = await createUser("monthly");
    expect(outcome(await create(user, { name: "Footer", files: footer("x") }))).toEqual(
      invalid([
        {
          field: "name",
          message: "name must be 1 to 64 of a-z, 0-9 and -, starting with a letter (footer, brand-header)",
        },
      ]),
    );
    expect(
      outcome(await create(user, { name: "footer", files: { ...footer("x"), "messages/en.json": "{}" } })),
    ).toEqual(
      invalid([
        {
          field: "files.messages/en.json",
          message: "a component holds code files only: its text comes from the template, as props or a translator",
        },
      ]),
    );
    expect(
      outcome(
        await create(user, { name: "footer", files: { "index.tsx": "export default function F() { return <p>; }" } }),
      ),
    ).toEqual(
      invalid([{ field: "files.index.tsx", message: expect.stringMatching(/^line 1, column \d+: Syntax error: /) }]),
    );
    expect(
      outcome(
        await create(user, {
          name: "footer",
          files: { "index.tsx": "export default function F() { return <p>a\u0000</p>; }" },
        }),
      ),
    ).toEqual(
      invalid([
        {
          field: "files.index.tsx",
          message: "line 1, column 42: A template's source must not contain the NUL character (\\u0000)",
        },
      ]),
    );
    const unknown = `import Header from "@components/header";\nexport default function F() { return <Header />; }\n`;
    expect(outcome(await create(user, { name: "footer", files: { "index.tsx": unknown } }))).toEqual(
      invalid([
        {
          field: "files.index.tsx",
          message: 'line 1, column 20: Import of "@components/header" names none of your components',
        },
      ]),
    );
    // footer imports header; header may not then import footer.
    const header = (body: string) => ({
      "index.tsx": `${body}export default function H() { return <h1>Acme</h1>; }\n`,
    });
    expect((await create(user, { name: "header", files: header("") })).status).toBe(201);
    expect((await create(user, { name: "footer", files: { "index.tsx": unknown } })).status).toBe(201);
    expect(outcome(await update(user, "header", { files: header('import "@components/footer";\n') }))).toEqual(
      invalid([
        {
          field: "files",
          message:
            'line 1, column 20: @components/footer/index.tsx: Import of "@components/header" is a cycle: a component may not import itself, directly or through another component',
        },
      ]),
    );
    expect((await read(user, "header")).body.component.version).toBe(1);
  });

  it("links a component into the template that imports it; an update republishes it, and each version keeps its own", async () => {
    const user = await createUser("monthly");
    expect((await create(user, { name: "footer", files: footer("Version one") })).status).toBe(201);
    const created = await createTemplate(user, TEMPLATE);
    expect(created.status).toBe(201);
    const id = created.body.template.id as string;
    expect(created.body.template.components).toEqual([{ name: "footer", version: 1 }]);
    const drafted = (await createTemplate(user, TEMPLATE, false)).body.template.id as string;
    const first = await render(user, id);
    expect(first.status).toBe(200);
    expect(first.body.html).toContain("<small>Version one</small>");
    expect(first.body.html).toContain("1 Main St");

    const updated = await update(user, "footer", { files: footer("Version two") });
    expect(outcome(updated)).toEqual({
      status: 200,
      body: {
        success: true,
        component: componentBody(footer("Version two"), {
          version: 2,
          used_by: [
            { template_id: expect.any(String), name: "Receipt", component_version: expect.any(Number) },
            { template_id: expect.any(String), name: "Receipt", component_version: expect.any(Number) },
          ],
        }),
        republished: [{ template_id: id, version: 2 }],
      },
    });
    expect(
      [...updated.body.component.used_by].sort((a: { template_id: string }, b: { template_id: string }) =>
        a.template_id < b.template_id ? -1 : 1,
      ),
    ).toEqual(
      [
        { template_id: id, name: "Receipt", component_version: 2 },
        // A draft rebuilds on its next save.
        { template_id: drafted, name: "Receipt", component_version: 1 },
      ].sort((a, b) => (a.template_id < b.template_id ? -1 : 1)),
    );
    const second = await render(user, id);
    expect(second.body.html).toContain("<small>Version two</small>");
    expect(second.body.html).not.toContain("Version one");
    // Version 1 renders byte for byte as before the component changed.
    expect((await render(user, id, { version: 1 })).body.html).toBe(first.body.html);
    expect((await render(user, drafted)).body.html).toContain("<small>Version one</small>");
    const history = await versions(user, id);
    expect(
      history.body.versions.map(({ version, components, reason }: Record<string, unknown>) => ({
        version,
        components,
        reason,
      })),
    ).toEqual([
      { version: 2, components: [{ name: "footer", version: 2 }], reason: "component footer v2" },
      { version: 1, components: [{ name: "footer", version: 1 }], reason: undefined },
    ]);
    expect((await version(user, id, "1")).body.version).toMatchObject({ components: [{ name: "footer", version: 1 }] });
    expect((await details(user, id)).body.template.components).toEqual([{ name: "footer", version: 2 }]);
    const audit = await getDb()`
      select action, target_id, details from audit_log where account_id = ${user.accountId} and action = 'template.published'`;
    expect(audit).toEqual([{ action: "template.published", target_id: id, details: { version: 2 } }]);

    // Version 1 restored renders as it did, with the component's version 1.
    const restored = await call(postRestore, "/x", {
      method: "POST",
      params: { id, n: "1" },
      headers: auth(user),
      body: { publish: true },
    });
    expect(restored.status).toBe(200);
    expect((await render(user, id)).body.html).toBe(first.body.html);
  });

  it(
    "publishes nothing when the new version breaks one template of fifty, and names it",
    { timeout: 120_000 },
    async () => {
      const user = await createUser("annual");
      expect((await create(user, { name: "footer", files: footer("Acme") })).status).toBe(201);
      const usesDefault = {
        "email.tsx": `import Footer from "@components/footer";\nexport default function E() { return <Footer />; }\n`,
      };
      const ids: string[] = [];
      for (let i = 0; i < 49; i++) {
        const made = await createTemplate(user, usesDefault);
        expect(made.status).toBe(201);
        ids.push(made.body.template.id);
      }
      const usesAddress = (await createTemplate(user, TEMPLATE)).body.template.id as string;
      const withoutAddress = {
        "index.tsx": `export default function Footer() { return <small>Acme Ltd</small>; }\n`,
      };
      const refused = await update(user, "footer", { files: withoutAddress });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        error: "Component breaks templates",
        code: "COMPONENT_BREAKS_TEMPLATES",
        success: false,
        message: "This version of @components/footer breaks a template that imports it: nothing was changed.",
        details: [
          { field: `templates.${usesAddress}`, message: expect.stringMatching(/^Receipt: The trial render failed: /) },
        ],
      });
      expect((await read(user, "footer")).body.component).toMatchObject({ version: 1, files: footer("Acme") });
      const published = await getDb()<{ count: number }[]>`
      select count(*)::int as count from template_versions where template_id = any(${[...ids, usesAddress]})`;
      expect(published).toEqual([{ count: 50 }]);

      // Fixed, the same update republishes all fifty in one go.
      const fixed = {
        ...withoutAddress,
        "index.tsx": `${withoutAddress["index.tsx"]}export function Address({ address }: { address: string }) { return <p>{address}</p>; }\n`,
      };
      const saved = await update(user, "footer", { files: fixed });
      expect(saved.status).toBe(200);
      expect(saved.body.republished).toHaveLength(50);
      expect(new Set(saved.body.republished.map(({ version }: { version: number }) => version))).toEqual(new Set([2]));
      expect((await render(user, usesAddress)).body.html).toContain("<p>1 Main St</p><small>Acme Ltd</small>");
    },
  );

  it("serializes concurrent updates of one component: each is a version, and the templates end on the last", async () => {
    const user = await createUser("monthly");
    expect((await create(user, { name: "footer", files: footer("v1") })).status).toBe(201);
    const id = (await createTemplate(user, TEMPLATE)).body.template.id as string;
    const answers = await Promise.all(["A", "B", "C"].map((text) => update(user, "footer", { files: footer(text) })));
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200]);
    expect(answers.map(({ body }) => body.component.version).sort()).toEqual([2, 3, 4]);
    const last = answers.find(({ body }) => body.component.version === 4)!;
    expect((await read(user, "footer")).body.component.files).toEqual(last.body.component.files);
    const history = (await versions(user, id)).body.versions;
    expect(history.map(({ version, reason }: Record<string, unknown>) => [version, reason])).toEqual([
      [4, "component footer v4"],
      [3, "component footer v3"],
      [2, "component footer v2"],
      [1, undefined],
    ]);
    const text = JSON.parse(JSON.stringify(last.body.component.files["index.tsx"])).match(/text="(\w)"/)[1];
    expect((await render(user, id)).body.html).toContain(`<small>${text}</small>`);
  });

  it("saves a draft that templates' drafts are built with and published versions are not", async () => {
    const user = await createUser("monthly");
    expect((await create(user, { name: "footer", files: footer("Published one") })).status).toBe(201);
    const id = (await createTemplate(user, TEMPLATE)).body.template.id as string;

    const drafted = await update(user, "footer", { files: footer("Draft two"), publish: false });
    expect(outcome(drafted)).toEqual({
      status: 200,
      body: {
        success: true,
        component: componentBody(footer("Published one"), {
          used_by: [{ template_id: id, name: "Receipt", component_version: 1 }],
          draft: { version: 2, files: footer("Draft two"), entry: "index.tsx", created_at: ISO },
        }),
        republished: [],
      },
    });
    expect((await render(user, id)).body.html).toContain("<small>Published one</small>");
    // The template's draft is built with the component's draft; its published version is not.
    const saveDraft = () =>
      call(putTemplate, "/x", {
        method: "PUT",
        params: { id },
        headers: auth(user),
        body: { name: "Receipt", files: TEMPLATE, publish: false },
      });
    expect((await saveDraft()).status).toBe(200);
    expect((await render(user, id, { version: "draft" })).body.html).toContain("<small>Draft two</small>");
    expect((await render(user, id)).body.html).toContain("<small>Published one</small>");
    const publish = () => call(postPublish, "/x", { method: "POST", params: { id }, headers: auth(user), body: {} });
    const notPublished = {
      status: 409,
      body: {
        error: "Component not published",
        code: "COMPONENT_NOT_PUBLISHED",
        success: false,
        message:
          "This draft was built with the draft of @components/footer (version 2): publish it (PUT /api/v1/components/{name}), then save the template's draft again, or save it with publish.",
      },
    };
    expect(outcome(await publish())).toEqual(notPublished);
    expect((await versions(user, id)).body.versions).toHaveLength(1);

    // Published, the component is version 3 (its draft was 2), and the template's published version follows.
    const published = await update(user, "footer", { files: footer("Draft two") });
    expect(published.body.component).toMatchObject({ version: 3, draft: null, files: footer("Draft two") });
    expect(published.body.republished).toEqual([{ template_id: id, version: 2 }]);
    // Built with the version published, numbered after the draft's.
    expect((await versions(user, id)).body.versions[0].components).toEqual([{ name: "footer", version: 3 }]);
    expect(published.body.component.used_by).toEqual([{ template_id: id, name: "Receipt", component_version: 3 }]);
    expect((await render(user, id)).body.html).toContain("<small>Draft two</small>");
    // The template's draft still holds the component's draft, older than its published version: publishing the draft
    // builds it again with that version, which is what the component's publish made version 2 of: nothing new.
    const fromDraft = await publish();
    expect(outcome(fromDraft)).toEqual({
      status: 200,
      body: {
        success: true,
        version: expect.objectContaining({
          version: 2,
          reason: "component footer v3",
          components: [{ name: "footer", version: 3 }],
        }),
      },
    });
    expect((await render(user, id)).body.html).toContain("<small>Draft two</small>");
    expect((await details(user, id)).body.template).toMatchObject({
      version: 2,
      components: [{ name: "footer", version: 3 }],
    });
  });

  it("builds a draft saved before its component's update again when it is published: the old footer never returns", async () => {
    const user = await createUser("monthly");
    expect((await create(user, { name: "footer", files: footer("Old Street 1") })).status).toBe(201);
    const id = (await createTemplate(user, TEMPLATE)).body.template.id as string;
    const edited = { "email.tsx": TEMPLATE["email.tsx"].replace("<p>Thanks, ", "<p>Your receipt, thanks, ") };
    const saveDraft = await call(putTemplate, "/x", {
      method: "PUT",
      params: { id },
      headers: auth(user),
      body: { name: "Receipt", files: edited, publish: false },
    });
    expect(saveDraft.status).toBe(200);
    // The address changes: the published version follows, the draft still holds version 1.
    expect((await update(user, "footer", { files: footer("New Road 2") })).body.republished).toEqual([
      { template_id: id, version: 2 },
    ]);
    const publish = () => call(postPublish, "/x", { method: "POST", params: { id }, headers: auth(user), body: {} });
    const published = await publish();
    expect(outcome(published)).toEqual({
      status: 200,
      body: {
        success: true,
        version: {
          version: 3,
          created_at: ISO,
          published_at: ISO,
          entry: "template.tsx",
          variables: expect.any(Object),
          components: [{ name: "footer", version: 2 }],
        },
      },
    });
    const html = (await render(user, id)).body.html as string;
    expect([html.includes("Your receipt"), html.includes("New Road 2"), html.includes("Old Street 1")]).toEqual([
      true,
      true,
      false,
    ]);
    // A draft using what the footer's next version drops: the update passes (the published version does not use it),
    // and the draft's publish is refused as its save would be, publishing nothing.
    const withSignature = {
      ...footer("New Road 2"),
      "index.tsx": `${footer("New Road 2")["index.tsx"]}export function Signature() {\n  return <small>Ada, Acme</small>;\n}\n`,
    };
    expect((await update(user, "footer", { files: withSignature })).status).toBe(200);
    const signed = {
      "email.tsx": edited["email.tsx"]
        .replace("import Footer, { Address }", "import Footer, { Address, Signature }")
        .replace("<Footer />", "<Footer />\n        <Signature />"),
    };
    const signedDraft = await call(putTemplate, "/x", {
      method: "PUT",
      params: { id },
      headers: auth(user),
      body: { name: "Receipt", files: signed, publish: false },
    });
    expect(signedDraft.status).toBe(200);
    const dropped = await update(user, "footer", { files: footer("New Road 3") });
    expect(dropped.body.republished).toEqual([{ template_id: id, version: 5 }]);
    const refused = await publish();
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 422, code: "RENDER_ERROR" });
    expect((await versions(user, id)).body.versions).toHaveLength(5);
  });

  it("publishes no draft read before its component's update with the old version, and rebuilds none without a component's draft", async () => {
    const user = await createUser("monthly");
    expect((await create(user, { name: "footer", files: footer("Old Street 1") })).status).toBe(201);
    const id = (await createTemplate(user, TEMPLATE)).body.template.id as string;
    const draftSave = (files: Record<string, string>) =>
      call(putTemplate, "/x", {
        method: "PUT",
        params: { id },
        headers: auth(user),
        body: { name: "Receipt", files, publish: false },
      });
    const edited = { "email.tsx": TEMPLATE["email.tsx"].replace("<p>Thanks, ", "<p>Your receipt, thanks, ") };
    expect((await draftSave(edited)).status).toBe(200);
    // What a publish read before an update of the footer committed: then the publish's transaction holds the footer
    // and finds it newer, so the draft is built again rather than published with version 1.
    const seen = (await findOwnDraft(user.accountId, id))!;
    expect((await update(user, "footer", { files: footer("New Road 2") })).status).toBe(200);
    await expect(
      publishDraft(user.accountId, id, undefined, null, { revision: seen.revision, pins: seen.components ?? [] }),
    ).rejects.toBeInstanceOf(PinnedComponentChanged);
    expect((await versions(user, id)).body.versions).toHaveLength(2);

    // A draft built with a component's draft and with another component updated since is refused, not built again
    // without the draft.
    expect((await create(user, { name: "header", files: footer("Header one") })).status).toBe(201);
    const withHeader = {
      "email.tsx": edited["email.tsx"]
        .replace(
          'import Footer, { Address } from "@components/footer";',
          'import Footer, { Address } from "@components/footer";\nimport Header from "@components/header";',
        )
        .replace("<Body>", "<Body>\n        <Header />"),
    };
    expect((await update(user, "header", { files: footer("Header draft"), publish: false })).status).toBe(200);
    expect((await draftSave(withHeader)).status).toBe(200);
    expect((await update(user, "footer", { files: footer("New Road 3") })).status).toBe(200);
    const refused = await call(postPublish, "/x", { method: "POST", params: { id }, headers: auth(user), body: {} });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 409,
      code: "COMPONENT_NOT_PUBLISHED",
    });
  });

  it("refuses an update with more dependents than it may republish, and changes nothing", async () => {
    const user = await createUser("annual");
    expect((await create(user, { name: "footer", files: footer("Acme") })).status).toBe(201);
    const id = (await createTemplate(user, TEMPLATE)).body.template.id as string;
    // 50 more published templates pinned to it (stored directly: what they hold does not matter to the count).
    await getDb()`
      insert into templates (owner_account_id, name, code, compiled_code, variables, published_version, components)
      select ${user.accountId}, 'Copy ' || n, 'x', 'x', '{}', 1,
             jsonb_build_array(jsonb_build_object('name', 'footer', 'version', 1, 'id', c.id::text))
      from generate_series(1, 50) n, components c
      where c.account_id = ${user.accountId} and c.name = 'footer'`;
    expect(outcome(await update(user, "footer", { files: footer("Acme Ltd") }))).toEqual({
      status: 422,
      body: {
        error: "Too many dependent templates",
        code: "TOO_MANY_DEPENDENTS",
        success: false,
        message:
          "51 published templates import @components/footer; an update checks and republishes at most 50: nothing was changed. Move some of them to another component first.",
      },
    });
    expect((await read(user, "footer")).body.component.version).toBe(1);
    expect((await versions(user, id)).body.versions).toHaveLength(1);
  });

  it("checks a template created while an update runs: every published template ends on the component's last version", async () => {
    const user = await createUser("annual");
    expect((await create(user, { name: "footer", files: footer("v1") })).status).toBe(201);
    const answers = await Promise.all([
      update(user, "footer", { files: footer("v2") }),
      createTemplate(user, TEMPLATE),
      createTemplate(user, TEMPLATE),
      update(user, "footer", { files: footer("v3") }),
      createTemplate(user, TEMPLATE),
    ]);
    expect(answers.map(({ status }) => status)).toEqual([200, 201, 201, 200, 201]);
    const component = (await read(user, "footer")).body.component;
    expect(component.version).toBe(3);
    const latest = await getDb()<{ components: unknown }[]>`
      select components from templates where owner_account_id = ${user.accountId}`;
    expect(latest).toHaveLength(3);
    for (const { components } of latest)
      expect(components).toEqual([{ name: "footer", version: 3, id: expect.any(String) }]);
  });

  it("serializes a component's update with a save of a template that imports it: neither is lost", async () => {
    const user = await createUser("monthly");
    expect((await create(user, { name: "footer", files: footer("v1") })).status).toBe(201);
    const id = (await createTemplate(user, TEMPLATE)).body.template.id as string;
    const edited = (n: number) => ({
      "email.tsx": TEMPLATE["email.tsx"].replace("Thanks, {name}", `Thanks ${n}, {name}`),
    });
    const [first, second, saved] = await Promise.all([
      update(user, "footer", { files: footer("v2") }),
      update(user, "footer", { files: footer("v3") }),
      call(putTemplate, "/x", {
        method: "PUT",
        params: { id },
        headers: auth(user),
        body: { name: "Receipt", files: edited(7) },
      }),
    ]);
    expect([first.status, second.status, saved.status]).toEqual([200, 200, 200]);
    const component = (await read(user, "footer")).body.component;
    expect(component.version).toBe(3);
    // The template's latest version holds its own edit and the component's latest version.
    const latest = (await versions(user, id)).body.versions[0];
    expect(latest.components).toEqual([{ name: "footer", version: 3 }]);
    const html = (await render(user, id)).body.html as string;
    expect(html).toContain("Thanks 7, ");
    expect(html).toContain(`<small>${component.files["index.tsx"].includes('"v3"') ? "v3" : "v2"}</small>`);
  });

  it("makes what a template passes through to a component a variable, typed as the component types it", async () => {
    const user = await createUser("monthly");
    const typedFooter = {
      "index.tsx": `interface FooterProps {
  /** The postal address */
  address: string;
  year?: number;
}
export default function Footer({ address, year = 2026 }: FooterProps) {
  return <small>{address}, {year}</small>;
}
`,
    };
    expect((await create(user, { name: "footer", files: typedFooter })).status).toBe(201);
    const passes = (parameter: string, value: string) => ({
      "email.tsx": `import Footer from "@components/footer";
export default function Receipt(${parameter}) {
  return <div><p>Thanks</p><Footer address={${value}} year={2027} /></div>;
}
`,
    });
    const viaProps = await createTemplate(user, passes("props", "props.address"));
    expect(viaProps.status).toBe(201);
    expect(viaProps.body.template.variables).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { address: { type: "string", description: "The postal address" } },
      required: ["address"],
      additionalProperties: true,
    });
    const id = viaProps.body.template.id as string;
    expect((await render(user, id, { variables: { address: "1 Main St" } })).body.html).toContain(
      "<small>1 Main St<!-- -->, <!-- -->2027</small>",
    );
    expect(outcome(await render(user, id, { variables: {} }))).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_ERROR", details: [{ field: "variables.address", message: expect.any(String) }] },
    });
    // Destructured with a default of its own: optional, and its own type (declared) wins over the component's.
    const withDefault = await createTemplate(user, passes('{ address = "HQ" }', "address"));
    expect(withDefault.body.template.variables).toMatchObject({ properties: { address: { type: "string" } } });
    expect(withDefault.body.template.variables.required).toBeUndefined();
    const declared = await createTemplate(user, passes('{ address }: { address: "a" | "b" }', "address"));
    expect(declared.body.template.variables).toMatchObject({
      properties: { address: { type: "string", enum: ["a", "b"] } },
      required: ["address"],
    });
  });

  it("tells a component deleted and one given its name since apart: old versions keep theirs", async () => {
    const user = await createUser("monthly");
    expect((await create(user, { name: "footer", files: footer("Old footer") })).status).toBe(201);
    const id = (await createTemplate(user, TEMPLATE)).body.template.id as string;
    const old = (await render(user, id)).body.html as string;
    // Version 2 no longer imports it, so it may go; a new footer takes its name.
    const plain = { "email.tsx": "export default function Receipt() { return <p>Thanks</p>; }\n" };
    expect(
      (
        await call(putTemplate, "/x", {
          method: "PUT",
          params: { id },
          headers: auth(user),
          body: { name: "Receipt", files: plain },
        })
      ).status,
    ).toBe(200);
    expect((await remove(user, "footer")).status).toBe(200);
    expect((await create(user, { name: "footer", files: footer("New footer") })).status).toBe(201);
    // Version 1 restored renders as it did, and is none of the new footer's dependents.
    const restored = await call(postRestore, "/x", {
      method: "POST",
      params: { id, n: "1" },
      headers: auth(user),
      body: { publish: true },
    });
    expect(restored.status).toBe(200);
    expect((await render(user, id)).body.html).toBe(old);
    expect((await read(user, "footer")).body.component.used_by).toEqual([]);
    const updated = await update(user, "footer", { files: footer("Newer footer") });
    expect(updated.body.republished).toEqual([]);
    expect((await render(user, id)).body.html).toBe(old);
  });

  it("refuses a template whose components would take it past the characters of source a compile links", async () => {
    const user = await createUser("annual");
    const big = (text: string) => ({
      "index.tsx": `export default function Big() { return <p>${text}</p>; }\n// ${"x".repeat(480_000)}\n`,
    });
    for (const name of ["big-one", "big-two", "big-three"])
      expect((await create(user, { name, files: big(name) })).status).toBe(201);
    const importsAll = {
      "email.tsx": `import One from "@components/big-one";
import Two from "@components/big-two";
import Three from "@components/big-three";
export default function E() { return <div><One /><Two /><Three /></div>; }
`,
    };
    expect(outcome(await createTemplate(user, importsAll))).toEqual(
      invalid([
        {
          field: "files",
          message: "A template and the components it imports may hold at most 1,000,000 characters of source in all",
        },
      ]),
    );
  });

  it("answers a name no component can have without repeating it", async () => {
    const user = await createUser("monthly");
    expect(outcome(await read(user, "x".repeat(300)))).toEqual({
      status: 404,
      body: {
        error: "Component not found",
        code: "COMPONENT_NOT_FOUND",
        success: false,
        message: "You have no component of that name: a name is 1 to 64 of a-z, 0-9 and -, starting with a letter.",
      },
    });
  });

  it("refuses a template importing a component the account does not have", async () => {
    const user = await createUser("monthly");
    expect(outcome(await createTemplate(user, TEMPLATE))).toEqual(
      invalid([
        {
          field: "files.email.tsx",
          message: 'line 2, column 33: Import of "@components/footer" names none of your components',
        },
      ]),
    );
  });

  it("keeps a component while a template's content or draft imports it", async () => {
    const user = await createUser("monthly");
    expect((await create(user, { name: "footer", files: footer("Acme") })).status).toBe(201);
    const published = (await createTemplate(user, TEMPLATE)).body.template.id as string;
    const drafted = (await createTemplate(user, TEMPLATE, false)).body.template.id as string;
    const users = [published, drafted].sort();
    const refused = await remove(user, "footer");
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: "Component in use",
      code: "COMPONENT_IN_USE",
      success: false,
      message: "2 templates import @components/footer: change them first.",
      details: users.map((templateId) => ({
        field: `templates.${templateId}`,
        message: "Receipt imports @components/footer",
      })),
    });
    for (const templateId of users)
      expect(
        (await call(deleteTemplate, "/x", { method: "DELETE", params: { id: templateId }, headers: auth(user) }))
          .status,
      ).toBe(200);
    expect(outcome(await remove(user, "footer"))).toEqual({ status: 200, body: { success: true } });
    expect(outcome(await read(user, "footer"))).toEqual(NOT_FOUND("footer"));
  });

  it("keeps one account's components from every other account", async () => {
    const alice = await createUser("monthly");
    const bob = await createUser("monthly");
    expect((await create(alice, { name: "footer", files: footer("Alice's") })).status).toBe(201);
    expect(outcome(await read(bob, "footer"))).toEqual(NOT_FOUND("footer"));
    expect(outcome(await update(bob, "footer", { files: footer("Bob's") }))).toEqual(NOT_FOUND("footer"));
    expect(outcome(await remove(bob, "footer"))).toEqual(NOT_FOUND("footer"));
    expect((await list(bob)).body.components).toEqual([]);
    expect((await createTemplate(bob, TEMPLATE)).body.details).toEqual([
      {
        field: "files.email.tsx",
        message: 'line 2, column 33: Import of "@components/footer" names none of your components',
      },
    ]);
    // Bob's own footer of the same name is his alone.
    expect((await create(bob, { name: "footer", files: footer("Bob's") })).status).toBe(201);
    const id = (await createTemplate(bob, TEMPLATE)).body.template.id as string;
    expect((await render(bob, id)).body.html).toContain("<small>Bob&#x27;s</small>");
    expect((await read(alice, "footer")).body.component).toMatchObject({
      version: 1,
      files: footer("Alice's"),
      used_by: [],
    });
  });
});

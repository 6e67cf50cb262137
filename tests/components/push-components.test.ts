import { execFile } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { GET as getComponent, PUT as putComponent } from "@/app/api/v1/components/[name]/route";
import { POST as postComponent } from "@/app/api/v1/components/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { auth, call, createUser, type TestUser } from "../support/api";

const run = promisify(execFile);

/** The API's component and template routes behind a real HTTP server, as the script reaches a deployment. */
async function serveApi(): Promise<{ url: string; close: () => void }> {
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const [, kind, id] = /^\/api\/v1\/(templates|components)(?:\/([^/]+))?$/.exec(request.url ?? "") ?? [];
    const handler =
      kind === "components"
        ? id === undefined
          ? postComponent
          : putComponent
        : id === undefined
          ? postTemplate
          : putTemplate;
    const result = await call(handler, request.url!, {
      method: request.method,
      headers: { "x-api-key": String(request.headers["x-api-key"]) },
      body: Buffer.concat(chunks).toString(),
      params: id === undefined ? {} : kind === "components" ? { name: decodeURIComponent(id) } : { id },
    });
    response.writeHead(result.status, { "content-type": "application/json" }).end(result.text);
  };
  const server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, close: () => server.close() };
}

const lines = (output: string) => output.split("\n").filter(Boolean);
const footer = (text: string) =>
  `import Brand from "@components/brand";\nexport default function Footer() { return <footer><Brand />${text}</footer>; }\n`;
const BRAND = `export default function Brand() { return <b>Acme</b>; }\n`;
const RECEIPT = `import Footer from "@components/footer";\nexport default function Receipt() { return <div><p>Thanks</p><Footer /></div>; }\n`;

const component = (user: TestUser, name: string) => call(getComponent, "/x", { params: { name }, headers: auth(user) });

describe("bin/push-templates.mjs with a components/ folder", () => {
  it("pushes the components first, one importing another after it, then the templates; an unchanged push makes no version", async () => {
    const user = await createUser("monthly");
    const api = await serveApi();
    try {
      const root = await mkdtemp(path.join(tmpdir(), "letterpress-components-"));
      await mkdir(path.join(root, "components", "footer"), { recursive: true });
      await mkdir(path.join(root, "components", "brand"));
      await mkdir(path.join(root, "receipt"));
      await writeFile(path.join(root, "components", "footer", "index.tsx"), footer("1 Main St"));
      await writeFile(path.join(root, "components", "brand", "index.tsx"), BRAND);
      await writeFile(path.join(root, "receipt", "email.tsx"), RECEIPT);
      const push = (...flags: string[]) =>
        run("node", ["bin/push-templates.mjs", root, ...flags], {
          env: { ...process.env, LETTERPRESS_BASE_URL: api.url, LETTERPRESS_API_KEY: user.key },
        });
      const [footerFolder, brandFolder, receipt] = [
        path.join(root, "components", "footer"),
        path.join(root, "components", "brand"),
        path.join(root, "receipt"),
      ];

      const first = await push();
      const components = lines(first.stdout).filter((line) => line.includes("component "));
      // Whichever the file system lists first, footer (which imports brand) is created after brand.
      expect(components.at(-1)).toBe(`${footerFolder}: created component footer, version 1`);
      expect(components).toContain(`${brandFolder}: created component brand, version 1`);
      expect(components).toHaveLength(2);
      const templateLine = lines(first.stdout).at(-1)!;
      expect(templateLine).toMatch(new RegExp(`^${receipt}: created receipt \\((.+)\\), version 1 published$`));
      expect(first.stderr).toBe("");
      const id = /\((.+)\)/.exec(templateLine)![1];
      const render = async () =>
        (await call(postRender, "/x", { method: "POST", params: { id }, headers: auth(user), body: {} })).body.html;
      expect(await render()).toContain("<footer><b>Acme</b>1 Main St</footer>");

      // Nothing changed: no version of anything.
      const again = await push();
      expect(lines(again.stdout).sort()).toEqual(
        [
          `${brandFolder}: saved component brand, version 1`,
          `${footerFolder}: saved component footer, version 1`,
          `${receipt}: saved receipt (${id}), version 1 published`,
        ].sort(),
      );

      // A changed footer publishes the receipt again with it; the receipt's own push then finds that version.
      await writeFile(path.join(root, "components", "footer", "index.tsx"), footer("2 High St"));
      const changed = await push();
      expect(lines(changed.stdout)).toContain(
        `${footerFolder}: saved component footer, version 2, 1 templates published again`,
      );
      expect(lines(changed.stdout).at(-1)).toBe(`${receipt}: saved receipt (${id}), version 2 published`);
      expect(await render()).toContain("<footer><b>Acme</b>2 High St</footer>");

      // --draft leaves the components as they are.
      await writeFile(path.join(root, "components", "footer", "index.tsx"), footer("3 Low St"));
      const drafted = await push("--draft");
      expect(lines(drafted.stdout)[0]).toBe(`${path.join(root, "components")}: left as they are (--draft)`);
      expect((await component(user, "footer")).body.component.version).toBe(2);
    } finally {
      api.close();
    }
  });

  it("reports a component that does not compile, and still pushes the rest", async () => {
    const user = await createUser("monthly");
    const api = await serveApi();
    try {
      const root = await mkdtemp(path.join(tmpdir(), "letterpress-components-"));
      await mkdir(path.join(root, "components", "broken"), { recursive: true });
      await mkdir(path.join(root, "components", "brand"));
      await writeFile(
        path.join(root, "components", "broken", "index.tsx"),
        "export default function B() { return <p>; }",
      );
      await writeFile(path.join(root, "components", "brand", "index.tsx"), BRAND);
      const pushed = await run("node", ["bin/push-templates.mjs", root], {
        env: { ...process.env, LETTERPRESS_BASE_URL: api.url, LETTERPRESS_API_KEY: user.key },
      }).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect("code" in pushed ? pushed.code : 0).toBe(1);
      expect(lines(pushed.stdout)).toEqual([
        `${path.join(root, "components", "brand")}: created component brand, version 1`,
      ]);
      expect(pushed.stderr).toContain(`${path.join(root, "components", "broken")}: {"error":"Invalid request body"`);
      expect((await component(user, "broken")).status).toBe(404);
    } finally {
      api.close();
    }
  });
});

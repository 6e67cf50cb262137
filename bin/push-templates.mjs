// Pushes a folder of React Email templates to Letterpress, for CI (plain Node 20, no dependencies: copy it into your
// repository; docs/templates-in-git.md has the workflow). Each folder under the one given is one template, its name
// and alias the folder's name, its .tsx/.ts/.jsx/.js files and its messages (messages/<locale>.json) at their paths
// inside it: saved with PUT /templates/{alias},
// or created with POST /templates the first time. With --draft each save replaces the template's draft (published
// sends are untouched); without it each save publishes a new version. A folder pushed before aliases keeps the id in
// its .letterpress-id: it is saved by that id and given the alias.
//
// A folder named `components` holds shared components instead, one folder each (its name the component's, imported
// as @components/<name>), pushed before the templates: PUT /components/{name} (which publishes again the templates
// that import it, or changes nothing when one would break), or POST /components the first time; a component that
// imports another is pushed after it. With --draft they are left as they are: a draft push changes no published send.
//
//   LETTERPRESS_BASE_URL=https://your-app.example/api/v1 LETTERPRESS_API_KEY=lp_live_… \
//     node bin/push-templates.mjs emails [--draft]
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

const SOURCE = /\.(tsx|ts|jsx|js)$/;
/** A locale's messages: messages/<tag>.json at the template's root (the API refuses any other .json). */
const MESSAGES = /^messages\/[^/]+\.json$/;
const ID_FILE = ".letterpress-id";

/** The template's files by their path inside `folder`, `/`-separated; hidden folders and node_modules left out. */
async function templateFiles(folder, prefix = "") {
  const files = {};
  for (const entry of await readdir(path.join(folder, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(files, await templateFiles(folder, relative));
    else if (SOURCE.test(entry.name) || MESSAGES.test(relative))
      files[relative] = await readFile(path.join(folder, relative), "utf8");
  }
  return files;
}

async function call(api, key, method, pathname, body) {
  const response = await fetch(`${api}${pathname}`, {
    method,
    headers: { "X-API-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, answer: await response.json().catch(() => ({ error: `HTTP ${response.status}` })) };
}

/** A component's folder: saved (a version only when its files changed), or created the first time. */
async function pushComponent(folder, { api, key }) {
  const name = path.basename(folder);
  const body = { files: await templateFiles(folder) };
  let { status, answer } = await call(api, key, "PUT", `/components/${encodeURIComponent(name)}`, body);
  let created = false;
  if (status === 404 && answer.code === "COMPONENT_NOT_FOUND") {
    ({ status, answer } = await call(api, key, "POST", "/components", { name, ...body }));
    created = true;
  }
  if (status >= 400) throw Object.assign(new Error(`${folder}: ${JSON.stringify(answer)}`), { answer, folder });
  const republished = answer.republished?.length ? `, ${answer.republished.length} templates published again` : "";
  return `${folder}: ${created ? "created" : "saved"} component ${name}, version ${answer.component.version}${republished}`;
}

/** Each folder of `components/`, one importing another after it: passes while one makes progress. */
async function pushComponents(root, options) {
  let pending = (await readdir(root, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => path.join(root, entry.name));
  const failures = [];
  while (pending.length > 0) {
    const waiting = [];
    for (const folder of pending) {
      try {
        console.log(await pushComponent(folder, options));
      } catch (error) {
        // It imports a component not pushed yet: tried again after the others.
        if (JSON.stringify(error.answer ?? "").includes("names none of your components")) waiting.push(error);
        else failures.push(error);
      }
    }
    if (waiting.length === pending.length) {
      failures.push(...waiting);
      break;
    }
    pending = waiting.map((error) => error.folder);
  }
  for (const { message } of failures) console.error(message);
  return failures.length === 0;
}

async function push(folder, { api, key, draft }) {
  const alias = path.basename(folder);
  const id = (await readFile(path.join(folder, ID_FILE), "utf8").catch(() => "")).trim();
  const body = { name: alias, alias, files: await templateFiles(folder), publish: !draft };
  let { status, answer } = await call(api, key, "PUT", `/templates/${encodeURIComponent(id || alias)}`, body);
  let created = false;
  if (status === 404 && answer.code === "TEMPLATE_NOT_FOUND" && !id) {
    ({ status, answer } = await call(api, key, "POST", "/templates", body));
    created = true;
  }
  if (status >= 400) throw new Error(`${folder}: ${JSON.stringify(answer)}`);
  const { template } = answer;
  const saved = draft ? `draft revision ${template.draft.revision}` : `version ${template.version} published`;
  return `${folder}: ${created ? "created" : "saved"} ${alias} (${template.id}), ${saved}`;
}

const args = process.argv.slice(2);
const draft = args.includes("--draft");
const [root, ...unknown] = args.filter((arg) => arg !== "--draft");
const api = (process.env.LETTERPRESS_BASE_URL ?? process.env.LP ?? "http://localhost:3000/api/v1").replace(/\/$/, "");
const key = process.env.LETTERPRESS_API_KEY;
if (!root || unknown.length > 0 || root.startsWith("--") || !key) {
  console.error(
    "Usage: LETTERPRESS_BASE_URL=<base URL of /api/v1> LETTERPRESS_API_KEY=<key> node push-templates.mjs <folder of templates> [--draft]",
  );
  process.exit(1);
}
let failed = false;
const entries = await readdir(root, { withFileTypes: true });
const componentsFolder = entries.find((entry) => entry.isDirectory() && entry.name === "components");
if (componentsFolder && draft) console.log(`${path.join(root, "components")}: left as they are (--draft)`);
else if (componentsFolder) failed = !(await pushComponents(path.join(root, "components"), { api, key }));
for (const entry of entries) {
  if (!entry.isDirectory() || entry.name.startsWith(".") || entry.name === "components") continue;
  try {
    console.log(await push(path.join(root, entry.name), { api, key, draft }));
  } catch (error) {
    console.error(error.message);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;

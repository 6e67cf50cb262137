// Pushes a folder of React Email templates to Letterpress, for CI (plain Node 20, no dependencies: copy it into your
// repository). Each folder under the one given is one template, named after the folder, its .tsx/.ts/.jsx/.js files
// at their paths inside it: created with POST /templates the first time, its id then kept in the folder's
// .letterpress-id (commit it), and replaced with PUT /templates/{id} on every later push.
//
//   LP=https://your-app.example/api/v1 LETTERPRESS_API_KEY=lp_live_… node scripts/push-templates.mjs emails
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const SOURCE = /\.(tsx|ts|jsx|js)$/;
const ID_FILE = ".letterpress-id";

/** The template's files by their path inside `folder`, `/`-separated; hidden folders and node_modules left out. */
async function templateFiles(folder, prefix = "") {
  const files = {};
  for (const entry of await readdir(path.join(folder, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(files, await templateFiles(folder, relative));
    else if (SOURCE.test(entry.name)) files[relative] = await readFile(path.join(folder, relative), "utf8");
  }
  return files;
}

async function push(folder, { api, key }) {
  const idFile = path.join(folder, ID_FILE);
  const id = (await readFile(idFile, "utf8").catch(() => "")).trim();
  const response = await fetch(id ? `${api}/templates/${id}` : `${api}/templates`, {
    method: id ? "PUT" : "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ name: path.basename(folder), files: await templateFiles(folder) }),
  });
  const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(`${folder}: ${JSON.stringify(answer)}`);
  if (!id) await writeFile(idFile, `${answer.template.id}\n`);
  return `${folder}: ${id ? "replaced" : "created"} ${answer.template.id}`;
}

const [root] = process.argv.slice(2);
const api = process.env.LP;
const key = process.env.LETTERPRESS_API_KEY;
if (!root || !api || !key) {
  console.error(
    "Usage: LP=<base URL of /api/v1> LETTERPRESS_API_KEY=<key> node push-templates.mjs <folder of templates>",
  );
  process.exit(1);
}
let failed = false;
for (const entry of await readdir(root, { withFileTypes: true })) {
  if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
  try {
    console.log(await push(path.join(root, entry.name), { api, key }));
  } catch (error) {
    console.error(error.message);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;

import "server-only";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";

// The typed client as an npm package tarball, made from its built folder on request: the install that works without a
// registry (`npm install <origin>/letterpress.tgz`). Deployments trace the folder's files (next.config.ts).

/** packages/letterpress, under the working directory where deployments trace it (not for the tracer to follow). */
const PACKAGE_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "packages", "letterpress");
/** npm pack's date for every entry: the same files make the same bytes, so a lockfile's integrity stays valid. */
const MTIME = Date.UTC(1985, 9, 26, 8, 15) / 1000;
const BLOCK = 512;

/** The package's files as `npm pack` takes them: package.json and what its `files` names, sorted, relative paths. */
export async function clientPackageFiles(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { files: string[] };
  const files = new Set(["package.json"]);
  for (const entry of manifest.files) {
    const full = path.join(PACKAGE_DIR, entry);
    if (!(await stat(full)).isDirectory()) {
      files.add(entry);
      continue;
    }
    for (const name of await readdir(full, { recursive: true })) {
      if ((await stat(path.join(full, name))).isFile()) files.add(path.join(entry, name));
    }
  }
  return [...files].map((file) => file.split(path.sep).join("/")).sort();
}

/** The gzipped tar npm installs: each file under `package/`, bin/ executable. */
export async function clientTarball(): Promise<Buffer> {
  const blocks: Buffer[] = [];
  for (const file of await clientPackageFiles()) {
    const data = await readFile(path.join(PACKAGE_DIR, file));
    blocks.push(tarHeader(`package/${file}`, data.length, file.startsWith("bin/") ? 0o755 : 0o644), data);
    const padding = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (padding) blocks.push(Buffer.alloc(padding));
  }
  blocks.push(Buffer.alloc(2 * BLOCK)); // the archive's end
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

/** A ustar header: name, mode, size and date in octal, the checksum over the header with its own field as spaces. */
function tarHeader(name: string, size: number, mode: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: a path over 100 bytes needs a ustar prefix`);
  const header = Buffer.alloc(BLOCK);
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, "0")}\0`;
  header.write(name, 0);
  header.write(octal(mode, 8), 100);
  header.write(octal(0, 8), 108); // uid
  header.write(octal(0, 8), 116); // gid
  header.write(octal(size, 12), 124);
  header.write(octal(MTIME, 12), 136);
  header.write(" ".repeat(8), 148);
  header.write("0", 156); // a regular file
  header.write("ustar\0", 257);
  header.write("00", 263);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  header.write(`${checksum.toString(8).padStart(6, "0")}\0 `, 148);
  return header;
}

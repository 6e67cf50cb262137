import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32, MAX_ZIP_ENTRIES, writeZip } from "@/lib/templates/zip";
import { readZip } from "../support/zip";

const FILES = {
  "email.tsx":
    'import { Footer } from "./components/footer";\nexport default function Email() { return <Footer />; }\n',
  "components/footer.tsx": "export function Footer() { return <p>Café — “bye” 👋</p>; }\n",
  "empty.ts": "",
};

describe("writeZip", () => {
  it("writes every file, in order, byte for byte, with UTF-8 names and contents", () => {
    const zip = writeZip(Object.entries(FILES).map(([path, content]) => ({ path, content })));
    expect(readZip(zip)).toEqual(
      Object.entries(FILES).map(([path, content]) => ({ path, data: Buffer.from(content, "utf8") })),
    );
  });

  it("writes an archive that unzip reads back and finds intact", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "zip-test-"));
    try {
      const archive = path.join(folder, "template.zip");
      writeFileSync(archive, writeZip(Object.entries(FILES).map(([path, content]) => ({ path, content }))));
      execFileSync("unzip", ["-tq", archive]);
      execFileSync("unzip", ["-q", archive, "-d", path.join(folder, "out")]);
      for (const [file, content] of Object.entries(FILES))
        expect(readFileSync(path.join(folder, "out", file), "utf8")).toBe(content);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("writes an empty archive as its end record alone", () => {
    expect(readZip(writeZip([]))).toEqual([]);
    expect(writeZip([]).length).toBe(22);
  });

  it("makes the same bytes from the same files (a fixed timestamp)", () => {
    const entries = [{ path: "a.tsx", content: "x" }];
    expect(writeZip(entries)).toEqual(writeZip(entries));
  });

  it("makes the bytes it made when it was written with Node's Buffer and zlib (it now runs in browsers too)", () => {
    const zip = writeZip(Object.entries(FILES).map(([path, content]) => ({ path, content })));
    expect(createHash("sha256").update(zip).digest("hex")).toBe(
      "cbae73356b6a6ba0c1b09c7463a699096259e672434cc43db839514db18f12cc",
    );
  });

  it("refuses more entries than it allows", () => {
    const entries = Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i) => ({ path: `f${i}.ts`, content: "" }));
    expect(() => writeZip(entries)).toThrow(new RangeError(`A zip holds at most ${MAX_ZIP_ENTRIES} entries`));
  });
});

describe("crc32", () => {
  it("computes zlib's CRC-32, from an empty input to one past 64 KB", () => {
    const inputs = [
      new Uint8Array(0),
      new TextEncoder().encode("a"),
      new TextEncoder().encode("123456789"),
      new TextEncoder().encode(FILES["components/footer.tsx"]),
      new Uint8Array(256).map((_, i) => 255 - i),
      new Uint8Array(randomBytes(70_000)),
    ];
    expect(inputs.map((input) => crc32(input))).toEqual(inputs.map((input) => zlibCrc32(input)));
    // The check value every CRC-32 (ISO-HDLC) implementation gives for "123456789".
    expect(crc32(inputs[2])).toBe(0xcbf43926);
  });
});

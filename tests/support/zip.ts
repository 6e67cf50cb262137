import { crc32 } from "node:zlib";

/** Throws unless `actual` is `expected` (usable from vitest and Playwright alike). */
function same(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) throw new Error(`zip: ${what} is ${String(actual)}, not ${String(expected)}`);
}

export type ReadEntry = { path: string; data: Buffer };

/**
 * The entries of a zip as its central directory lists them, each read through its local header; every header's
 * fields are checked against the other's and the CRC-32 against the bytes.
 */
export function readZip(bytes: Uint8Array): ReadEntry[] {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = zip.length - 22;
  same(zip.readUInt32LE(end), 0x06054b50, "zip.readUInt32LE(end)");
  const count = zip.readUInt16LE(end + 10);
  const centralSize = zip.readUInt32LE(end + 12);
  let at = zip.readUInt32LE(end + 16);
  same(at + centralSize, end, "at + centralSize");
  const entries: ReadEntry[] = [];
  for (let i = 0; i < count; i++) {
    same(zip.readUInt32LE(at), 0x02014b50, "zip.readUInt32LE(at)");
    const method = zip.readUInt16LE(at + 10);
    const checksum = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at += 46 + nameLength + extraLength + commentLength;

    same(zip.readUInt32LE(localAt), 0x04034b50, "zip.readUInt32LE(localAt)");
    same(zip.readUInt16LE(localAt + 8), method, "zip.readUInt16LE(localAt + 8)");
    same(zip.readUInt32LE(localAt + 14), checksum, "zip.readUInt32LE(localAt + 14)");
    same(zip.readUInt32LE(localAt + 18), size, "zip.readUInt32LE(localAt + 18)");
    const localNameLength = zip.readUInt16LE(localAt + 26);
    const localExtraLength = zip.readUInt16LE(localAt + 28);
    same(
      zip.subarray(localAt + 30, localAt + 30 + localNameLength).toString("utf8"),
      name,
      'zip.subarray(localAt + 30, localAt + 30 + localNameLength).toString("utf8")',
    );
    same(method, 0, "method");
    const dataAt = localAt + 30 + localNameLength + localExtraLength;
    const data = zip.subarray(dataAt, dataAt + size);
    same(crc32(data), checksum, "crc32(data)");
    entries.push({ path: name, data: Buffer.from(data) });
  }
  return entries;
}

import { crc32 } from "node:zlib";
import { expect } from "vitest";

export type ReadEntry = { path: string; data: Buffer };

/**
 * The entries of a zip as its central directory lists them, each read through its local header; every header's
 * fields are checked against the other's and the CRC-32 against the bytes.
 */
export function readZip(zip: Buffer): ReadEntry[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  const centralSize = zip.readUInt32LE(end + 12);
  let at = zip.readUInt32LE(end + 16);
  expect(at + centralSize).toBe(end);
  const entries: ReadEntry[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const checksum = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at += 46 + nameLength + extraLength + commentLength;

    expect(zip.readUInt32LE(localAt)).toBe(0x04034b50);
    expect(zip.readUInt16LE(localAt + 8)).toBe(method);
    expect(zip.readUInt32LE(localAt + 14)).toBe(checksum);
    expect(zip.readUInt32LE(localAt + 18)).toBe(size);
    const localNameLength = zip.readUInt16LE(localAt + 26);
    const localExtraLength = zip.readUInt16LE(localAt + 28);
    expect(zip.subarray(localAt + 30, localAt + 30 + localNameLength).toString("utf8")).toBe(name);
    expect(method).toBe(0);
    const dataAt = localAt + 30 + localNameLength + localExtraLength;
    const data = zip.subarray(dataAt, dataAt + size);
    expect(crc32(data)).toBe(checksum);
    entries.push({ path: name, data: Buffer.from(data) });
  }
  return entries;
}

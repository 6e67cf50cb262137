// A minimal ZIP writer for downloads of a template's files: stored (uncompressed) entries, each with its CRC-32, one
// pass over the bytes. Templates are small (MAX_TEMPLATE_SOURCE_CHARS in all), so compression would save little and
// cost a compressor; the writer still refuses anything past ZIP's 16- and 32-bit fields (no ZIP64). It uses nothing
// of Node's, so the server's "Download .zip" and the browser's "With current variables" make their archives alike.

export type ZipEntry = { path: string; content: string | Uint8Array };

/** Entries in one archive, and bytes in all: far above any template's, far below ZIP's 32-bit offsets. */
export const MAX_ZIP_ENTRIES = 1000;
const MAX_ZIP_BYTES = 64 * 1024 * 1024;

/** Each record's signature, and the size of its fixed fields (a header's name follows them). */
const LOCAL_HEADER = { signature: 0x04034b50, size: 30 };
const CENTRAL_HEADER = { signature: 0x02014b50, size: 46 };
const END_OF_CENTRAL_DIRECTORY = { signature: 0x06054b50, size: 22 };
/** Version 2.0: what stored entries and folders need. */
const VERSION = 20;
/** General purpose flag bit 11: the names are UTF-8. */
const UTF8_NAMES = 0x0800;
/** 1980-01-01 00:00 in MS-DOS time and date: a fixed stamp, so the same files make the same archive. */
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;

/** CRC-32 (ISO-HDLC, ZIP's) of each byte value, for the byte-at-a-time loop below. */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, value) => {
  let crc = value;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc;
});

/** The CRC-32 of `bytes`, as ZIP (and zlib) compute it. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

type Stored = { name: Uint8Array; data: Uint8Array; checksum: number; offset: number };

/** The archive of `entries`, in their order, as the bytes of a .zip file. */
export function writeZip(entries: ZipEntry[]): Uint8Array<ArrayBuffer> {
  if (entries.length > MAX_ZIP_ENTRIES) throw new RangeError(`A zip holds at most ${MAX_ZIP_ENTRIES} entries`);
  const utf8 = new TextEncoder();
  const stored: Stored[] = [];
  let offset = 0;
  let centralSize = 0;
  for (const entry of entries) {
    const name = utf8.encode(entry.path);
    const data = typeof entry.content === "string" ? utf8.encode(entry.content) : entry.content;
    if (name.length > 0xffff) throw new RangeError(`The path ${JSON.stringify(entry.path)} is too long for a zip`);
    stored.push({ name, data, checksum: crc32(data), offset });
    offset += LOCAL_HEADER.size + name.length + data.length;
    if (offset > MAX_ZIP_BYTES) throw new RangeError(`A zip holds at most ${MAX_ZIP_BYTES} bytes`);
    centralSize += CENTRAL_HEADER.size + name.length;
  }

  // One allocation: every local header and its file, then the central directory, then its end record.
  const zip = new Uint8Array(offset + centralSize + END_OF_CENTRAL_DIRECTORY.size);
  const view = new DataView(zip.buffer);
  let at = 0;
  for (const file of stored) {
    view.setUint32(at, LOCAL_HEADER.signature, true);
    writeCommonFields(view, at + 4, file);
    zip.set(file.name, at + LOCAL_HEADER.size);
    zip.set(file.data, at + LOCAL_HEADER.size + file.name.length);
    at += LOCAL_HEADER.size + file.name.length + file.data.length;
  }
  for (const file of stored) {
    view.setUint32(at, CENTRAL_HEADER.signature, true);
    view.setUint16(at + 4, VERSION, true); // made by
    writeCommonFields(view, at + 6, file);
    // Comment length, disk number, internal and external attributes: all 0.
    view.setUint32(at + 42, file.offset, true);
    zip.set(file.name, at + CENTRAL_HEADER.size);
    at += CENTRAL_HEADER.size + file.name.length;
  }
  view.setUint32(at, END_OF_CENTRAL_DIRECTORY.signature, true);
  view.setUint16(at + 8, entries.length, true); // entries on this disk
  view.setUint16(at + 10, entries.length, true); // entries in all
  view.setUint32(at + 12, centralSize, true);
  view.setUint32(at + 16, offset, true);
  return zip;
}

/** The fields a local header and a central directory header share, from `at` (version needed to the name's length). */
function writeCommonFields(view: DataView, at: number, { name, data, checksum }: Stored): void {
  view.setUint16(at, VERSION, true);
  view.setUint16(at + 2, UTF8_NAMES, true);
  view.setUint16(at + 4, 0, true); // stored
  view.setUint16(at + 6, DOS_TIME, true);
  view.setUint16(at + 8, DOS_DATE, true);
  view.setUint32(at + 10, checksum, true);
  view.setUint32(at + 14, data.length, true); // compressed
  view.setUint32(at + 18, data.length, true); // uncompressed
  view.setUint16(at + 22, name.length, true);
  // Extra field length: 0.
}

import { crc32 } from "node:zlib";

// A minimal ZIP writer for downloads of a template's files: stored (uncompressed) entries, each with its CRC-32, one
// pass over the bytes. Templates are small (MAX_TEMPLATE_SOURCE_CHARS in all), so compression would save little and
// cost a compressor; the writer still refuses anything past ZIP's 16- and 32-bit fields (no ZIP64).

export type ZipEntry = { path: string; content: string | Uint8Array };

/** Entries in one archive, and bytes in all: far above any template's, far below ZIP's 32-bit offsets. */
export const MAX_ZIP_ENTRIES = 1000;
export const MAX_ZIP_BYTES = 64 * 1024 * 1024;

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** Version 2.0: what stored entries and folders need. */
const VERSION = 20;
/** General purpose flag bit 11: the names are UTF-8. */
const UTF8_NAMES = 0x0800;
/** 1980-01-01 00:00 in MS-DOS time and date: a fixed stamp, so the same files make the same archive. */
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;

/** The archive of `entries`, in their order, as the bytes of a .zip file. */
export function writeZip(entries: ZipEntry[]): Buffer {
  if (entries.length > MAX_ZIP_ENTRIES) throw new RangeError(`A zip holds at most ${MAX_ZIP_ENTRIES} entries`);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.path, "utf8");
    const data = typeof entry.content === "string" ? Buffer.from(entry.content, "utf8") : Buffer.from(entry.content);
    if (name.length > 0xffff) throw new RangeError(`The path ${JSON.stringify(entry.path)} is too long for a zip`);
    const checksum = crc32(data);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    writeCommonFields(local, 4, { name, size: data.length, checksum });
    locals.push(local, name, data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(VERSION, 4); // made by
    writeCommonFields(central, 6, { name, size: data.length, checksum });
    // Comment length, disk number, internal and external attributes: all 0.
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + data.length;
    if (offset > MAX_ZIP_BYTES) throw new RangeError(`A zip holds at most ${MAX_ZIP_BYTES} bytes`);
  }
  const centralSize = centrals.reduce((size, part) => size + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8); // entries on this disk
  end.writeUInt16LE(entries.length, 10); // entries in all
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** The fields a local header and a central directory header share, from `at` (version needed to the name's length). */
function writeCommonFields(
  header: Buffer,
  at: number,
  { name, size, checksum }: { name: Buffer; size: number; checksum: number },
): void {
  header.writeUInt16LE(VERSION, at);
  header.writeUInt16LE(UTF8_NAMES, at + 2);
  header.writeUInt16LE(0, at + 4); // stored
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(checksum, at + 10);
  header.writeUInt32LE(size, at + 14); // compressed
  header.writeUInt32LE(size, at + 18); // uncompressed
  header.writeUInt16LE(name.length, at + 22);
  // Extra field length: 0.
}

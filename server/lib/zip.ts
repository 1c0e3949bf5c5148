// A ZIP archive written in memory with Node's own zlib (deflate and CRC-32): a client's data
// export (ADR-0036) is a few files, so no streaming library earns its place. The format is
// PKWARE's APPNOTE: a local header and the data per file, then the central directory. File
// names are UTF-8 (flag bit 11); no ZIP64, so each file and the whole stay under 4 GiB.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer | string;
}

const UTF8_NAMES = 0x0800;
const DEFLATE = 8;
const STORE = 0;

/** MS-DOS time and date of `at` (local fields as UTC: the archive's readers show it as is). */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export function zip(entries: readonly ZipEntry[], at = new Date()): Buffer {
  const { time, date } = dosTime(at);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const deflated = deflateRawSync(data);
    // Already compressed files (photos, PDFs) are stored when deflating does not help.
    const [method, body] = deflated.length < data.length ? [DEFLATE, deflated] : [STORE, data];
    const crc = crc32(data);
    // The local header and the central one say the same of the file, in the same order, from
    // `at`: flags, method, time, date, CRC-32, compressed and full sizes, the name's length.
    const describeFile = (header: Buffer, at: number) => {
      header.writeUInt16LE(UTF8_NAMES, at);
      header.writeUInt16LE(method, at + 2);
      header.writeUInt16LE(time, at + 4);
      header.writeUInt16LE(date, at + 6);
      header.writeUInt32LE(crc, at + 8);
      header.writeUInt32LE(body.length, at + 12);
      header.writeUInt32LE(data.length, at + 16);
      header.writeUInt16LE(name.length, at + 20);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    describeFile(local, 6);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    central.writeUInt16LE(20, 6);
    describeFile(central, 8);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

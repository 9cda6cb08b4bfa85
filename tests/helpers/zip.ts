// Writing a .zip as APPNOTE.TXT describes it (stored or deflated entries, optionally streamed
// with a data descriptor, UTF-8 names), for the shapes of archive the tests need; the page's
// reader is src/worker/unzip.ts, and an archive Info-ZIP wrote is checked there too.
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '../../src/worker/unzip';

export interface Entry {
  path: string;
  data: Uint8Array;
  deflate?: boolean;
  /** write sizes and CRC after the data (bit 3), zeros in the local header, as streamers do */
  descriptor?: boolean;
  utf8?: boolean;
}

/** A zip as APPNOTE describes it, for shapes Info-ZIP above does not make. */
export function makeZip(entries: Entry[], comment = ''): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.path, 'utf8');
    const body = e.deflate ? deflateRawSync(e.data) : Buffer.from(e.data);
    const crc = crc32(e.data);
    const flags = (e.descriptor ? 8 : 0) | (e.utf8 ? 0x800 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    if (!e.descriptor) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(e.data.length, 22);
    }
    local.writeUInt16LE(name.length, 26);
    const desc = Buffer.alloc(e.descriptor ? 16 : 0);
    if (e.descriptor) {
      desc.writeUInt32LE(0x08074b50, 0);
      desc.writeUInt32LE(crc, 4);
      desc.writeUInt32LE(body.length, 8);
      desc.writeUInt32LE(e.data.length, 12);
    }
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(flags, 8);
    c.writeUInt16LE(e.deflate ? 8 : 0, 10);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(body.length, 20);
    c.writeUInt32LE(e.data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, name);
    parts.push(local, name, body, desc);
    offset += local.length + name.length + body.length + desc.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(Buffer.byteLength(comment), 20);
  return new Uint8Array(Buffer.concat([...parts, dir, end, Buffer.from(comment)]));
}

// A .zip's files, read through its central directory (APPNOTE.TXT 4.3.12–16): stored entries
// as they are, deflated ones through the platform's DecompressionStream('deflate-raw') — the
// browser's and Node's own inflate, so no zip library. Each entry's CRC-32 is checked. Not
// read: encryption, zip64 (archives over 4 GiB or 65,535 entries), methods other than
// stored (0) and deflate (8); each is an error that says so.

export interface ZipEntry {
  /** the entry's path inside the archive, "/"-separated */
  path: string;
  /** its uncompressed size, bytes */
  size: number;
  /** its bytes; null when it is larger than the `maxEntryBytes` asked for */
  bytes: Uint8Array | null;
}

export class ZipError extends Error {
  override name = 'ZipError';
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function isZip(bytes: Uint8Array): boolean {
  // a local file header, or an empty archive's end record
  const sig =
    bytes.length >= 4 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true) : 0;
  return sig === LOCAL || sig === EOCD;
}

/** The archive's files (folders and macOS's __MACOSX forks left out), in directory order. */
export async function unzip(
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
  maxEntryBytes = Infinity,
): Promise<ZipEntry[]> {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): never => {
    throw new ZipError(`${name}: ${why}`);
  };
  // The end record is the last 22 bytes but for a comment of up to 65,535 bytes.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (v.getUint32(i, true) === EOCD && i + 22 + v.getUint16(i + 20, true) === bytes.length) {
      end = i;
      break;
    }
  }
  if (end < 0) fail('not a zip file (no end of central directory)');
  const count = v.getUint16(end + 10, true);
  const dirSize = v.getUint32(end + 12, true);
  const dirAt = v.getUint32(end + 16, true);
  if (count === 0xffff || dirAt === 0xffffffff)
    fail('a zip64 archive (not read: zip it without zip64)');
  if (v.getUint16(end + 4, true) !== 0 || v.getUint16(end + 8, true) !== count) {
    fail('a multi-part archive (not read)');
  }
  if (dirAt + dirSize > end) fail('the central directory lies outside the file (truncated?)');

  const out: ZipEntry[] = [];
  const utf8 = new TextDecoder('utf-8');
  const latin = new TextDecoder('latin1');
  let at = dirAt;
  for (let k = 0; k < count; k++) {
    if (at + 46 > end || v.getUint32(at, true) !== CENTRAL) {
      fail(`central directory entry ${k + 1} of ${count} is damaged`);
    }
    const flags = v.getUint16(at + 8, true);
    const method = v.getUint16(at + 10, true);
    const crc = v.getUint32(at + 16, true);
    const packed = v.getUint32(at + 20, true);
    const size = v.getUint32(at + 24, true);
    const nameLen = v.getUint16(at + 28, true);
    const extraLen = v.getUint16(at + 30, true);
    const commentLen = v.getUint16(at + 32, true);
    const local = v.getUint32(at + 42, true);
    const raw = bytes.subarray(at + 46, at + 46 + nameLen);
    // bit 11: the name is UTF-8; else IBM 437, of which ASCII (all DiskSim's names) is a part
    const path = (flags & 0x800 ? utf8 : latin).decode(raw).replace(/\\/g, '/');
    at += 46 + nameLen + extraLen + commentLen;
    if (path.endsWith('/') || path.startsWith('__MACOSX/')) continue;
    if (flags & 1) fail(`${path} is encrypted (not read)`);
    if (packed === 0xffffffff || size === 0xffffffff) fail(`${path}: zip64 sizes (not read)`);
    if (size > maxEntryBytes) {
      out.push({ path, size, bytes: null });
      continue;
    }
    if (local + 30 > bytes.length || v.getUint32(local, true) !== LOCAL) {
      fail(`${path}: its local header is missing or damaged`);
    }
    const data = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    if (data + packed > bytes.length) fail(`${path}: its data runs past the end of the file`);
    const body = bytes.subarray(data, data + packed);
    let plain: Uint8Array;
    if (method === 0) plain = body;
    else if (method === 8) plain = await inflateRaw(body, `${name}: ${path}`);
    else
      plain = fail(
        `${path} is compressed with method ${method} (only stored and deflate are read)`,
      );
    if (plain.length !== size)
      fail(`${path}: ${plain.length} bytes unpacked, the directory says ${size}`);
    if (crc32(plain) !== crc) fail(`${path}: CRC-32 mismatch (the archive is damaged)`);
    out.push({ path, size, bytes: plain });
  }
  return out;
}

async function inflateRaw(body: Uint8Array<ArrayBuffer>, what: string): Promise<Uint8Array> {
  try {
    const source = new ReadableStream<Uint8Array<ArrayBuffer>>({
      start(c) {
        c.enqueue(body);
        c.close();
      },
    });
    const stream = source.pipeThrough(new DecompressionStream('deflate-raw'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw new ZipError(`${what}: the deflated data is damaged (${(e as Error).message})`);
  }
}

let table: Uint32Array | null = null;

/** CRC-32 (ISO 3309, reflected polynomial 0xEDB88320), as zip stores it. */
export function crc32(bytes: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let b = 0; b < 8; b++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

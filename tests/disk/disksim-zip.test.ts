// Reading a .zip of DiskSim files (src/worker/unzip.ts): an archive Info-ZIP wrote (one entry
// deflated, one stored) comes back byte for byte; CRC-32 is zip's (its check value); what the
// reader does not read — zip64, encryption, other methods — and damage are errors that say so.
import { describe, expect, it } from 'vitest';
import { crc32, isZip, unzip, ZipError } from '../../src/worker/unzip';
import { makeZip } from '../helpers/zip';

// `zip -X -9 a.zip valid/deflated.diskspecs && zip -X -0 a.zip valid/stored.parv` (Info-ZIP
// 3.0), the first file being "Param i = 7i,\n" for i = 0…59
const INFO_ZIP =
  'UEsDBBQAAgAIAGdmfF0JUE9hDwEAAKUDAAAYAAAAdmFsaWQvZGVmbGF0ZWQuZGlza3NwZWNzRdO7cUMxDETR3FW8AhwQP34C9aAW' +
  'VIAT9x+IuzNchjfiGQB8f/4/f097Xk/7/XkzbMc44TssT8Uut1OJmqdqV9Spviv91ECtU3NX9VNrVw89Dsq4FmKkMXCmOAbPkscA' +
  'WgIZRNZEMpjMhLLBFsvgMhfMILMQzRtnIZsb+46KsyrpHDrr4nmy5XP6hnxO35TP6ZvyOX1LPofPm3zRuB35wtjyBXzud5ncZsgX' +
  '3GfIF/B5yhfweckXgy1fwOddvqBvyJf0TfmSvilf0rfkS/ii3XNLtnzJizP5Er5w+XKw5Uv4IuRL+CLlq8YLlq+MLV/BF12+om/I' +
  'V/SN+yHom/IVfUu+om/JV/Blk6/gS9u+L1BLAwQKAAAAAABnZnxdGo0DBBoAAAAaAAAAEQAAAHZhbGlkL3N0b3JlZC5wYXJ2c291' +
  'cmNlIGRlZmxhdGVkLmRpc2tzcGVjcwpQSwECHgMUAAIACABnZnxdCVBPYQ8BAAClAwAAGAAAAAAAAAABAAAApIEAAAAAdmFsaWQv' +
  'ZGVmbGF0ZWQuZGlza3NwZWNzUEsBAh4DCgAAAAAAZ2Z8XRqNAwQaAAAAGgAAABEAAAAAAAAAAAAAAKSBRQEAAHZhbGlkL3N0b3Jl' +
  'ZC5wYXJ2UEsFBgAAAAACAAIAhQAAAI4BAAAAAA==';

const infoZip = (): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(INFO_ZIP, 'base64'));
const DEFLATED_TEXT = Array.from({ length: 60 }, (_, i) => `Param ${i} = ${i * 7},\n`).join('');
const text = (b: Uint8Array | null) => new TextDecoder().decode(b!);

/** Offsets in INFO_ZIP (from `zipinfo -v`): the central directory's entries. */
function centralEntries(b: Uint8Array): number[] {
  const v = new DataView(b.buffer, b.byteOffset);
  const end = b.length - 22;
  let at = v.getUint32(end + 16, true);
  const out: number[] = [];
  for (let k = 0; k < v.getUint16(end + 10, true); k++) {
    out.push(at);
    at += 46 + v.getUint16(at + 28, true) + v.getUint16(at + 30, true) + v.getUint16(at + 32, true);
  }
  return out;
}

const bytes = (s: string) => new TextEncoder().encode(s);

async function refusal(b: Uint8Array<ArrayBuffer>, maxEntryBytes?: number): Promise<string> {
  const e = await unzip('x.zip', b, maxEntryBytes).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ZipError);
  return (e as Error).message;
}

describe('unzip', () => {
  it('reads what Info-ZIP wrote: a deflated entry and a stored one, with their paths', async () => {
    const z = infoZip();
    expect(isZip(z)).toBe(true);
    const entries = await unzip('a.zip', z);
    expect(entries.map((e) => [e.path, e.size])).toEqual([
      ['valid/deflated.diskspecs', 933],
      ['valid/stored.parv', 26],
    ]);
    expect(text(entries[0]!.bytes)).toBe(DEFLATED_TEXT);
    expect(text(entries[1]!.bytes)).toBe('source deflated.diskspecs\n');
  });

  it('computes CRC-32 as zip does (the check value of "123456789" is 0xCBF43926)', () => {
    expect(crc32(bytes('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('takes sizes from the central directory (a streamed entry has zeros locally), UTF-8 names, a comment', async () => {
    const z = makeZip(
      [
        { path: 'dir/', data: new Uint8Array(0) },
        {
          path: 'dir/ü.model',
          data: bytes('x = 1\n'.repeat(100)),
          deflate: true,
          descriptor: true,
          utf8: true,
        },
        { path: '__MACOSX/dir/._ü.model', data: bytes('fork') },
      ],
      'made by a test',
    );
    const entries = await unzip('z.zip', z);
    expect(entries.map((e) => e.path)).toEqual(['dir/ü.model']);
    expect(text(entries[0]!.bytes)).toBe('x = 1\n'.repeat(100));
  });

  it('leaves an entry above the size asked for unread, with its size', async () => {
    const z = makeZip([
      { path: 'a.parv', data: bytes('small') },
      { path: 'big.trace', data: new Uint8Array(5000), deflate: true },
    ]);
    const entries = await unzip('z.zip', z, 1000);
    expect(entries.map((e) => [e.path, e.size, e.bytes === null])).toEqual([
      ['a.parv', 5, false],
      ['big.trace', 5000, true],
    ]);
  });

  it('says a file is not a zip, or is cut short', async () => {
    expect(isZip(bytes('disksim_global Global {'))).toBe(false);
    expect(await refusal(bytes('not a zip at all, just some text that is long enough'))).toBe(
      'x.zip: not a zip file (no end of central directory)',
    );
    const z = infoZip();
    expect(await refusal(z.subarray(0, z.length - 30))).toMatch(/not a zip file/);
    // the end record kept, the entries' bytes gone
    const cut = new Uint8Array([...z.subarray(0, 100), ...z.subarray(z.length - 22)]);
    const v = new DataView(cut.buffer);
    v.setUint32(cut.length - 6, 50, true); // the directory said to start at 50
    expect(await refusal(cut)).toBe(
      'x.zip: the central directory lies outside the file (truncated?)',
    );
    // a directory whose entry points at no local header
    const lost = z.slice();
    new DataView(lost.buffer).setUint32(centralEntries(z)[1]! + 42, 3, true);
    expect(await refusal(lost)).toBe(
      'x.zip: valid/stored.parv: its local header is missing or damaged',
    );
  });

  it('finds damage by the CRC-32', async () => {
    const z = infoZip();
    // the stored entry's data: its local header is at the central entry's offset 42
    const v = new DataView(z.buffer);
    const local = v.getUint32(centralEntries(z)[1]! + 42, true);
    const at = local + 30 + 'valid/stored.parv'.length;
    z[at] = z[at]! ^ 0x20; // "source" → "Source"
    expect(await refusal(z)).toBe(
      'x.zip: valid/stored.parv: CRC-32 mismatch (the archive is damaged)',
    );
  });

  it('says which entry is damaged deflate data', async () => {
    const z = makeZip([{ path: 'm.model', data: bytes('x = 1\n'.repeat(100)), deflate: true }]);
    z[30 + 'm.model'.length] = 0xff; // a block type that does not exist
    expect(await refusal(z)).toMatch(/^x\.zip: m\.model: the deflated data is damaged \(.+\)$/);
  });

  it('refuses encryption, other methods, zip64 and multi-part archives by name', async () => {
    const z = infoZip();
    const v = new DataView(z.buffer);
    const [first, second] = centralEntries(z) as [number, number];

    const enc = z.slice();
    new DataView(enc.buffer).setUint16(first + 8, 1, true);
    expect(await refusal(enc)).toBe('x.zip: valid/deflated.diskspecs is encrypted (not read)');

    const bzip2 = z.slice();
    new DataView(bzip2.buffer).setUint16(second + 10, 12, true);
    expect(await refusal(bzip2)).toBe(
      'x.zip: valid/stored.parv is compressed with method 12 (only stored and deflate are read)',
    );

    const z64 = z.slice();
    new DataView(z64.buffer).setUint16(z.length - 22 + 10, 0xffff, true);
    expect(await refusal(z64)).toBe('x.zip: a zip64 archive (not read: zip it without zip64)');

    const multi = z.slice();
    new DataView(multi.buffer).setUint16(z.length - 22 + 4, 1, true);
    expect(await refusal(multi)).toBe('x.zip: a multi-part archive (not read)');
    expect(v.getUint32(0, true)).toBe(0x04034b50);
  });
});

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const ZIP64_EXTRA = 0x0001;
const UNKNOWN_32 = 0xffffffff;

/**
 * How many bytes the entries of a zip archive (a .docx) that `counts` unpack
 * to, as its central directory declares them: read before anything is
 * unpacked, so a small file that inflates to gigabytes is refused at once.
 * (A directory that lies is caught by the reading thread's memory limit.)
 */
export function zipInflatedBytes(zip: Buffer, counts: (name: string) => boolean): number {
  const end = endOfDirectory(zip);
  if (end < 0) throw new Error('it is not a valid Word file (not a zip archive)');
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  let total = 0;
  for (let i = 0; i < entries; i += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw new Error('it is not a valid Word file (its zip directory is damaged)');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    let size = zip.readUInt32LE(at + 24);
    if (size === UNKNOWN_32)
      size = zip64Size(zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    if (counts(name)) total += size;
    at += 46 + nameLength + extraLength + commentLength;
  }
  return total;
}

/** The end-of-central-directory record, searched from the end (a comment of up to 64 KiB may follow it). */
function endOfDirectory(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  return -1;
}

/** A Zip64 entry's uncompressed size, from its extra field (the first 8 bytes of the 0x0001 block). */
function zip64Size(extra: Buffer): number {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA && length >= 8) return Number(extra.readBigUInt64LE(at + 4));
    at += 4 + length;
  }
  return Number.POSITIVE_INFINITY;
}

// A ZIP archive of one file, deflated (APPNOTE.TXT 4.3: a local header, the data, one central directory entry, the
// end record): enough for clamd to unpack in the tests, without a ZIP library among the dependencies.
import { crc32, deflateRawSync } from 'node:zlib';

export function zipOf(name: string, content: Buffer | string): Buffer {
  const data = Buffer.from(content);
  const packed = deflateRawSync(data);
  const fileName = Buffer.from(name);
  const checksum = crc32(data);
  // Version 2.0, no flags, deflate, time and date 0.
  const common = (header: Buffer, at: number) => {
    header.writeUInt16LE(20, at);
    header.writeUInt16LE(0, at + 2);
    header.writeUInt16LE(8, at + 4);
    header.writeUInt32LE(0, at + 6);
    header.writeUInt32LE(checksum, at + 10);
    header.writeUInt32LE(packed.length, at + 14);
    header.writeUInt32LE(data.length, at + 18);
    header.writeUInt16LE(fileName.length, at + 22);
    header.writeUInt16LE(0, at + 24);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  common(local, 4);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  common(central, 6);
  // Comment length, disk, attributes and the local header's offset (0) stay 0.
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + packed.length, 16);
  return Buffer.concat([local, fileName, packed, central, fileName, end]);
}

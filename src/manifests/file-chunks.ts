/** Reading a file in chunks, for inputs of any size (`node-stream.ts`). */

import * as fs from 'fs';

/**
 * The chunks of a file, read 1 MiB at a time with synchronous reads (a command-line run has nothing else to do
 * meanwhile, and each read then costs no trip through the event loop). Each chunk is a fresh buffer.
 */
export function* fileChunks(file: string): Generator<Buffer> {
  const fd = fs.openSync(file, 'r');
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 20);
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return;
      yield read === chunk.length ? chunk : chunk.subarray(0, read);
    }
  } finally {
    fs.closeSync(fd);
  }
}

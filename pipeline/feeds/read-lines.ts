import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * The file's lines, streamed (never the whole file in one string). `.gz` files are gunzipped.
 * Breaking out of the loop closes the file.
 */
export async function* readLines(file: string): AsyncGenerator<string> {
  const source = createReadStream(file);
  const input: Readable = file.endsWith('.gz') ? source.pipe(createGunzip()) : source;
  // A gunzip error (truncated or corrupt file) must reach the reader, not crash the process.
  source.on('error', (err) => input.destroy(err));
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    input.destroy();
    source.destroy();
  }
}

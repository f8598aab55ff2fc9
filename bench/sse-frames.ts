/**
 * Turns an SSE response's text chunks into frames (`event`, `id`, `data`; single-line data, as
 * our server writes it): the bench's stream clients each keep their own per-frame bookkeeping,
 * and this is the framing they share. Frames without an event name (comments, `retry:`) are
 * skipped.
 */
export function sseFrames(onFrame: (event: string, id: string, data: string) => void): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let id = '';
  let data = '';
  return (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line !== '') {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data = line.slice(6);
        continue;
      }
      if (event !== '') onFrame(event, id, data);
      event = '';
      id = '';
      data = '';
    }
  };
}

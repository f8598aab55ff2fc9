import { ApiError } from '../errors.js';

/**
 * A comma list of stream channel names (SSE's `channel`, WebSocket's `channels`): each name once,
 * in the order given, blanks dropped; a name outside `known` is a 400 naming `field` and the
 * channels there are.
 */
export function channelList(text: string, known: readonly string[], field: string): string[] {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    ),
  ];
  for (const n of names) {
    if (!known.includes(n))
      throw new ApiError('invalid_request', `Invalid ${field}: unknown channel '${n}' (channels: ${known.join(', ')})`);
  }
  return names;
}

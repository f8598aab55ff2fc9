import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { channelList } from './channel-list.js';

describe('a stream channel list', () => {
  it('keeps each name once, in the order given, without blanks or spaces', () => {
    expect(channelList(' odds, ,splits,odds ', ['odds', 'splits', 'opportunities'], "filter 'channels'")).toEqual(['odds', 'splits']);
    expect(channelList(',', ['odds'], "filter 'channels'")).toEqual([]);
  });

  it('refuses an unknown name with 400 invalid_request naming the field and the channels there are', () => {
    const refusal = (field: string): unknown => {
      try {
        channelList('odds,__proto__', ['odds', 'splits'], field);
      } catch (e) {
        return e instanceof ApiError ? [e.code, e.message] : e;
      }
      return null;
    };
    expect(refusal("query parameter 'channel'")).toEqual([
      'invalid_request',
      "Invalid query parameter 'channel': unknown channel '__proto__' (channels: odds, splits)",
    ]);
    expect(refusal("filter 'channels'")).toEqual([
      'invalid_request',
      "Invalid filter 'channels': unknown channel '__proto__' (channels: odds, splits)",
    ]);
  });
});

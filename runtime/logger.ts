import { pino } from 'pino';
import type { Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

export type LogFormatSetting = 'auto' | 'pretty' | 'json';
export type LogFormat = 'pretty' | 'json';

/**
 * A person at a terminal reads lines around the banner; anything else (a pipe, a file, a
 * container's log driver) collects one JSON object per line. `LOG_FORMAT` overrides the guess.
 */
export function logFormatFor(setting: LogFormatSetting, stdoutIsTTY: boolean): LogFormat {
  if (setting !== 'auto') return setting;
  return stdoutIsTTY ? 'pretty' : 'json';
}

/** The process's logger on standard output, in the format `logFormatFor` picked. */
export function makeLogger(level: string, format: LogFormat): Logger {
  if (format === 'json') return pino({ level });
  // Formatted on the main thread and written synchronously: the last lines before an exit
  // (the shutdown report, a fatal stage) are never left in a worker's buffer.
  return pino({ level }, PinoPretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
}

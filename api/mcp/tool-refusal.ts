import { ApiError } from '../errors.js';
import type { ToolOutcome, ToolRefusal } from './tool.js';

/** REST messages name query parameters and body fields; a tool's caller knows them as arguments. */
export function asArgumentMessage(message: string): string {
  return message.replace(/\b(query parameter|body field|parameter)\b/g, 'argument');
}

/** What a client reads from a refused call besides the words: the REST error's code and extras. */
export function refusalOf(err: ApiError): ToolRefusal {
  return { code: err.code, ...err.extras };
}

/** A tool's answer from the query layer: what the layer refuses (`ApiError`) is a tool error in the REST words. */
export function refusalsAsToolErrors(answer: () => ToolOutcome): ToolOutcome {
  try {
    return answer();
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, message: asArgumentMessage(err.message), refusal: refusalOf(err) };
    throw err;
  }
}

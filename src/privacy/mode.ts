import type { RedactionMode } from './kinds.ts';

/** True for a base URL on this machine (localhost, 127.0.0.0/8, ::1): a local model, whose prompts never leave. */
export function onLoopback(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return false; // the provider's own API
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::1' || host === '0:0:0:0:0:0:0:1';
}

/**
 * A new mind's redaction when the account says nothing (REDACTION unset): `outbound` whenever an
 * LLM provider is configured that is not on loopback, else `off`.
 */
export function defaultRedaction(set: RedactionMode | undefined, llm: { baseUrl: string | undefined } | null): RedactionMode {
  if (set !== undefined) return set;
  return llm !== null && !onLoopback(llm.baseUrl) ? 'outbound' : 'off';
}

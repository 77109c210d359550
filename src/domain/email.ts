import { invalid } from '../kernel/errors.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An account's email as stored and compared: trimmed, lower-cased, and shaped like an address. */
export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized)) throw invalid('invalid_email', `"${email}" is not an email address.`);
  return normalized;
}

import { z } from 'zod';
import { REDACTION_KINDS } from '../../privacy/kinds.ts';

/** How many values of each kind of personal data were replaced by placeholders (kinds with none left out); never the values. */
export const RedactionCounts = z
  .object(Object.fromEntries(REDACTION_KINDS.map((k) => [k, z.number().int().min(0).optional()])) as Record<(typeof REDACTION_KINDS)[number], z.ZodOptional<z.ZodNumber>>)
  .describe('Values replaced by placeholders, counted by kind (email, phone, card, iban, address, url, dob, person); never the values')
  .meta({ id: 'RedactionCounts' });

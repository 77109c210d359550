/**
 * fast-check arbitraries from this project's zod 4 schemas: valid inputs, near-valid ones (one
 * mutation away from valid) and invalid ones. Written here because the maintained bridge,
 * zod-fast-check, supports zod 3 and fast-check 3 only (peer ranges `zod ^3.18`, `fast-check <4`),
 * and no other published package derives arbitraries from zod 4 schemas. It covers what
 * src/http/schemas.ts uses: objects, strings (lengths, trim, uuid), numbers (int, bounds,
 * coerce), optional, default, nullable, preprocess pipes, literals, enums, records, unknown.
 */
import fc, { type Arbitrary } from 'fast-check';
import type { z } from 'zod';

/** Arbitraries by field name, used instead of the schema's (e.g. a pool of known ids for `mindId`). */
export type Overrides = Record<string, Arbitrary<unknown>>;

interface Def {
  type: string;
  format?: string;
  checks?: Array<{ _zod: { def: { check: string; minimum?: number; maximum?: number; value?: number; format?: string } } }>;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  out?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, string>;
  valueType?: z.ZodType;
  element?: z.ZodType;
  coerce?: boolean;
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

function bounds(def: Def) {
  let min: number | undefined;
  let max: number | undefined;
  let int = false;
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'min_length') min = d.minimum;
    if (d.check === 'max_length') max = d.maximum;
    if (d.check === 'greater_than') min = d.value;
    if (d.check === 'less_than') max = d.value;
    if (d.check === 'number_format' && d.format?.includes('int')) int = true;
  }
  return { min, max, int };
}

/** Text a person or a script might send: unicode, emoji, control characters, markup, traversal. */
export const nastyString = (maxLength = 60) =>
  fc.oneof(
    fc.string({ maxLength, unit: 'grapheme' }),
    fc.string({ maxLength, unit: 'binary' }),
    fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', '<script>alert(1)</script>', '%00', '\u202e', 'NaN', '__proto__', "'; drop table minds; --"),
  );

function validOf(schema: z.ZodType, overrides: Overrides, key?: string): Arbitrary<unknown> {
  if (key && overrides[key]) return overrides[key];
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return fc.record(
        Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, validOf(v, overrides, k)])),
        { requiredKeys: Object.entries(def.shape ?? {}).filter(([, v]) => !isOptional(v)).map(([k]) => k) },
      );
    case 'string': {
      if (def.format === 'uuid') return fc.uuid();
      const { min = 0, max = 300 } = bounds(def);
      return fc.string({ minLength: min, maxLength: Math.min(max, min + 300), unit: 'grapheme' });
    }
    case 'number': {
      const { min = -1e6, max = 1e6, int } = bounds(def);
      return int ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'optional':
    case 'default':
    case 'nullable':
      return fc.oneof(validOf(def.innerType as z.ZodType, overrides, key), fc.constant(def.type === 'nullable' ? null : undefined));
    case 'pipe':
      return validOf(def.out as z.ZodType, overrides, key);
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'array':
      return fc.array(validOf(def.element as z.ZodType, overrides), { maxLength: 5 });
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), validOf(def.valueType as z.ZodType, overrides), { maxKeys: 5 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function isOptional(s: z.ZodType): boolean {
  const t = defOf(s).type;
  if (t === 'optional' || t === 'default') return true;
  if (t === 'pipe') return isOptional(defOf(s).out as z.ZodType);
  return false;
}

/** Valid inputs of the schema (checked with the schema itself, so trim and refinements hold too). */
export function valid<T extends z.ZodType>(schema: T, overrides: Overrides = {}): Arbitrary<z.input<T>> {
  return validOf(schema, overrides).filter((v) => schema.safeParse(v).success) as Arbitrary<z.input<T>>;
}

/** Values of the wrong kind for a field of this schema, and just-out-of-bounds ones. */
function wrongFor(schema: z.ZodType): Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = def.innerType ?? def.out;
  if (inner) return wrongFor(inner);
  const { min, max } = bounds(def);
  const edges: unknown[] = [null, true, 0, -1, 1.5, [], {}, '', '   ', 'not-a-uuid', '1e309'];
  if (def.type === 'string' && max !== undefined) edges.push('x'.repeat(max + 1));
  if (def.type === 'number') edges.push(...[min, max].filter((v) => v !== undefined).map((v) => (v as number) + (v === min ? -1 : 1)), 'abc', '1.5');
  return fc.oneof(fc.constantFrom(...edges), nastyString(), fc.jsonValue({ maxDepth: 2 }));
}

/** Fields a client must never set, mixed into near-valid bodies (mass assignment). */
export const FORBIDDEN_FIELDS = ['id', 'accountId', 'account_id', 'status', 'createdAt', 'updatedAt', 'tier', 'apiKeyId', '__proto__', 'constructor'];

/** One mutation away from valid: a field dropped, of the wrong kind or out of bounds, or a foreign field added. */
export function nearValid<T extends z.ZodObject>(schema: T, overrides: Overrides = {}, foreign: Arbitrary<unknown> = fc.uuid()): Arbitrary<unknown> {
  const shape = defOf(schema).shape ?? {};
  const keys = Object.keys(shape);
  return fc.tuple(validOf(schema, overrides) as Arbitrary<Record<string, unknown>>, fc.nat(), fc.nat(), foreign).chain(([base, i, j, value]) => {
    const key = keys[i % keys.length] as string;
    const field = shape[key] as z.ZodType;
    return fc.oneof(
      fc.constant(Object.fromEntries(Object.entries(base).filter(([k]) => k !== key))),
      wrongFor(field).map((w) => ({ ...base, [key]: w })),
      fc.constant({ ...base, [FORBIDDEN_FIELDS[j % FORBIDDEN_FIELDS.length] as string]: value }),
    );
  });
}

/** Valid JSON nested thousands of levels deep (parses fine; recursive code over it overflows the stack). */
export const deepJson = fc
  .tuple(fc.integer({ min: 50, max: 200_000 }), fc.boolean())
  .map(([d, arrays]) => (arrays ? `${'['.repeat(d)}${']'.repeat(d)}` : `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`));

/** Anything a JSON body could hold, and text that is not JSON at all. */
export const invalidJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  nastyString(200),
  fc.constantFrom('{', '{"a":', '[1,2', 'null', '""', '{"__proto__":{"x":1}}', '{"a":1,"a":2}', '1e999', '"\\ud800"'),
  deepJson,
);

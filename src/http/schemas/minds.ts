import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../kernel/pagination.ts';
import { Mind, MindFields, MindName, PageQuery, Tag, TagName } from '../schemas.ts';
import { ConsentWithdrawal } from './consent.ts';

/** Schemas of the hosted Mind routes added for issue 14: listing by tag, search, PUT, and tags. */
const Id = z.uuid();

/** `?tags=a,b` or `?tags=a&tags=b` (Fastify gives an array for a repeated key): the names, split and trimmed. */
const TagFilter = z
  .union([z.string().max(2000), z.array(z.string().max(2000)).max(50)])
  .transform((v) =>
    [v]
      .flat()
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  )
  .pipe(z.array(z.string().max(100)).max(50));

export const MindsQuery = PageQuery.extend({
  tags: TagFilter.optional().describe('Only minds carrying any of these tag names (case-insensitive): ?tags=a,b or ?tags=a&tags=b'),
});
export const MindsList = z.object({ minds: z.array(Mind) }).meta({ id: 'MindList' });

export const SearchQuery = z.object({
  query: z.string().trim().min(1).max(200).describe('Matched anywhere in the name, the email or a tag name, whatever its case'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export const SearchResult = z.object({
  minds: z.array(Mind).describe('Newest first, at most `limit`'),
  count: z.number().int().describe('How many minds match in all (may exceed the minds returned)'),
});

export const PutMindBody = z
  .object({ name: MindName.optional(), ...MindFields })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Give at least one of name, email, imageUrl, socialMedia, scope, consent')
  .describe('The fields given are changed, the others kept; null clears email, imageUrl or socialMedia. {"consent": {"status": "withdrawn"}}, sent alone, erases the mind');
export const PutMindResponse = z.union([z.object({ success: z.literal(true), mind: Mind }), ConsentWithdrawal]);

export const SetTagsBody = z.object({
  tagNames: z.array(TagName).max(50).describe('The mind carries exactly these tags afterwards; missing tags are made, [] clears'),
});
export const MindEnvelope = z.object({ mind: Mind });

export const TagParams = z.object({ tagId: Id });
export const TagList = z.object({ tags: z.array(Tag).describe('By name, case-insensitively') });
export const RenameTagBody = z.object({ name: TagName });
export const TagEnvelope = z.object({ tag: Tag });
export const TagDeleted = z.object({ message: z.literal('Tag deleted successfully'), tagId: Id });

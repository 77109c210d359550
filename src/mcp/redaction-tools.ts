/**
 * `set_redaction` (issue 25): what `PUT /minds/{mindId}` with `{redaction}` does. A mind's
 * redaction says what happens to the personal data found in the person's transcripts (e-mail
 * addresses, phone numbers, payment cards, IBANs, postal addresses, personal URLs, dates of birth,
 * third parties' names): nothing (off), replaced by placeholders in everything sent to the LLM
 * provider (outbound), or also in what is stored, searched and quoted (stored).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { REDACTION_MODES, type RedactionMode } from '../privacy/kinds.ts';

export interface RedactionBackend {
  /** `PUT /minds/{mindId}` with `{redaction}`: `{success, mind}`. */
  setRedaction(mindId: string, redaction: RedactionMode): Promise<unknown>;
}

export const REDACTION_DESCRIPTION =
  "How a mind's personal data is redacted: off; outbound (e-mail addresses, phone numbers, payment cards, IBANs, postal addresses, " +
  "personal URLs, dates of birth and third parties' names are replaced by placeholders such as [email] or [person 2] in everything " +
  'sent to the language model provider); stored (replaced in what is stored, searched and quoted too). Applies to transcripts processed afterwards.';

export function registerRedactionTools(server: McpServer, backend: RedactionBackend, run: (fn: () => Promise<unknown>) => Promise<CallToolResult>): void {
  server.registerTool(
    'set_redaction',
    {
      description: `Set a mind's redaction. ${REDACTION_DESCRIPTION} Returns {success, mind}.`,
      inputSchema: {
        mindId: z.string().uuid().describe('The mind'),
        redaction: z.enum(REDACTION_MODES).describe('off, outbound or stored'),
      },
    },
    ({ mindId, redaction }) => run(() => backend.setRedaction(mindId, redaction)),
  );
}

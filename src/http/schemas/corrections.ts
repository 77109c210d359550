/** A mind's corrections (issue 32): `/minds/{mindId}/corrections` and `POST /simulations/{simulationId}/corrections`. */
import { z } from 'zod';
import { MAX_CORRECTION_NOTE, MAX_CORRECTION_TEXT } from '../../domain/correction.ts';
import { Id, Timestamp } from '../schemas.ts';

const Text = z.string().trim().min(1).max(MAX_CORRECTION_TEXT);
const Note = z.string().trim().max(MAX_CORRECTION_NOTE);

export const CorrectionParams = z.object({ mindId: Id, correctionId: Id });
export const SimulationCorrectionParams = z.object({ simulationId: Id });

export const Correction = z
  .object({
    id: Id,
    mindId: Id,
    scenario: z.string().describe('The scenario corrected (redacted when the mind redacts what it stores)'),
    answer: z.string().describe('What the person would really say: the mind answers from it when asked this scenario or a paraphrase'),
    simulationId: Id.nullable().describe('The simulation whose turn it corrects, when it came from one'),
    note: z.string().nullable(),
    createdAt: Timestamp,
    createdBy: z.string().describe('Who wrote it: `key:<api key id>`, `user:<account id>` (the dashboard) or `review-link:<link id>` (the person)'),
  })
  .meta({ id: 'Correction' });

export const CreateCorrection = z.object({
  scenario: Text.describe('The scenario or question, 1–20,000 characters (the limits of a scenario)'),
  answer: Text.describe('What the person would really say, 1–20,000 characters'),
  simulationId: Id.optional().describe("The simulation whose answer this corrects (one of this mind's)"),
  note: Note.optional().describe('Why, or who said so; at most 2,000 characters'),
});

export const CorrectSimulation = z.object({
  answer: Text.describe("What the person would really say to the simulation's latest message, 1–20,000 characters"),
  note: Note.optional().describe('Why, or who said so; at most 2,000 characters'),
});

export const CorrectionEnvelope = z.object({ correction: Correction });

export const CorrectionList = z.object({
  corrections: z.array(Correction).describe('Newest first'),
  count: z.number().int().describe('How many corrections the mind has in all (every page)'),
});

export const CorrectionDeleted = z.object({
  message: z.literal('Correction deleted successfully'),
  correctionId: Id,
});

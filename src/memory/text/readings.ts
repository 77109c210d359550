/**
 * What a sentence of the person says about them, read from its words: the one owner of these
 * readings, for the persona profile (stated behaviours) and the answer stage (memory/answer/).
 *
 * - **reason**: it gives a reason, a rule or a belief ("because…", "you have to…", "the key is…",
 *   "I think…");
 * - **behaviour**: it states what they do: a habit ("I always…", "we usually…"), what they would do
 *   ("I'd…", "I won't…") or what they did ("I decided…", "we hired…");
 * - **greeting**: a greeting, thanks for being invited, or a self-introduction ("Hi, I'm Luke
 *   Wroblewski…");
 * - **sentiment**: wink-nlp's, negation-aware (sentences.ts `sentimentOf`), read once per sentence of a
 *   mind by MindMemory.reading;
 * - **ends a sentence**: whether the text ends where a sentence ends (a memory cut from a long
 *   unpunctuated sentence ends on a comma or on nothing).
 */
// ---- Stated behaviours ----

const STRONG_HABIT_RE =
  /\b(I|we)\s+(always|usually|normally|typically|generally|never|tend to|make sure|make a point|refuse|insist)\b/i;
const HABIT_RE = /\b(I|we)\s+(often|rarely|seldom|sometimes|try to|like to|prefer|avoid)\b/i;
/** A habit of the past: "I used to…". */
const USED_TO_RE = /\b(?:I|we)\s+used to\b/i;
const WOULD_RE =
  /\b(I|we)(?:'d| would|'ll| will| won't| don't| do not)\s+(?!say|think|guess|imagine|argue|suggest|know|remember|care|mean|see|want to say)\w+/i;
/** Something they did: "I decided…", "we hired…", "I ended up…" (not what they said, thought or felt). */
const DID_RE =
  /\b(?:I|we)\s+(?:(?:just|actually|finally|then|also|eventually|once|really|basically|literally|immediately|quickly|ended up|kind of|sort of)\s+)*(?!(?:said|thought|felt|guessed|wondered|meant|wanted|needed|liked|loved|hated|hoped|noticed|realized|realised|believed|remembered|learned|mentioned|talked|laughed|joked|heard|assumed|expected|imagined|worried|cared|seemed|appeared|used|supposed|called it)\b)(decided|started|stopped|quit|left|took|made|built|hired|fired|chose|moved|switched|went|tried|wrote|launched|sold|bought|raised|began|gave|got|set up|put|turned|spent|kept|did|had to|signed|asked|told|sent|picked|opened|closed|founded|joined|dropped|cut|changed|shut|reached|ran|found|\w+ed)\b/i;

export type BehaviourKind = 'always' | 'usually' | 'sometimes' | 'never' | 'would';

/** How strongly a sentence states a habit: 3 "I always/never…", 2 "I often/try to…", 1 "I would/won't…", 0 none. */
export function behaviourStrength(text: string): number {
  if (STRONG_HABIT_RE.test(text)) return 3;
  if (HABIT_RE.test(text)) return 2;
  return WOULD_RE.test(text) ? 1 : 0;
}

/** The kind of a stated behaviour, or null when the sentence states none. */
export function behaviourKind(text: string): BehaviourKind | null {
  const strong = STRONG_HABIT_RE.exec(text)?.[2]?.toLowerCase();
  if (strong) {
    if (strong === 'never' || strong === 'refuse') return 'never';
    return strong === 'always' || strong === 'make sure' || strong === 'make a point' || strong === 'insist' ? 'always' : 'usually';
  }
  const habit = HABIT_RE.exec(text)?.[2]?.toLowerCase();
  if (habit) return habit === 'rarely' || habit === 'seldom' || habit === 'avoid' ? 'never' : habit === 'often' ? 'usually' : 'sometimes';
  const would = WOULD_RE.exec(text)?.[0]?.toLowerCase() ?? '';
  if (!would) return null;
  return /won't|don't|do not/.test(would) ? 'never' : 'would';
}

/** What a sentence says they do or did: a habit, a past action, what they would do, or nothing. */
export type Deed = 'habit' | 'did' | 'would' | null;

/** What they would or will do ("I'd call them", "we'll ship it"), not what they would say, think or be. */
const WILL_DO_RE =
  /\b(?:I|we)(?:'d| would|'ll| will)\s+(?:(?:just|probably|definitely|always|never|still|also|really|first)\s+)*(?!say|think|guess|imagine|argue|suggest|know|remember|care|mean|see|be|have|like|love|want|need|feel|hope|expect|bet|rather say)\w+/i;
/** What they do not do ("I don't take meetings after five"), not a state ("we don't have those constraints"). */
const DO_NOT_RE =
  /\b(?:I|we) (?:don't|do not|won't|will not|never) (?!have|know|like|love|want|need|think|feel|understand|believe|mean|care|see|remember|get|wanna|really|necessarily|say|guess|mind|expect|agree|hear)\w+/i;
/**
 * What they do, in the present: "I push back on…", "we pair with…" (not a state, a thought or a
 * modal: "I think", "I love", "I can").
 */
const PRESENT_DO_RE =
  /\b(?:I|we) (?:(?:just|also|still|actually|really|basically|typically|mostly|often|sometimes|usually|always)\s+)*(?!(?:am|was|were|are|have|had|has|do|did|does|can|could|would|will|should|shall|may|might|must|need|want|wanna|gotta|think|thought|know|knew|mean|guess|believe|feel|felt|hope|wish|love|like|hate|enjoy|care|see|saw|say|said|remember|forget|wonder|suppose|imagine|assume|realize|realise|understand|agree|doubt|bet|trust|appreciate|get|got|kind|sort|was|don't|didn't|can't|won't|wouldn't|couldn't|shouldn't|haven't|wasn't|weren't|aren't|isn't|just|also|still|actually|really|always|never|went|made|took|told|left|built|began|ran|sold|bought|gave|found|kept|spent|wrote)\b)(?:[a-z]+)(?<!ed|ing|ly)\b(?= (?:[a-z]|"))/;
/** A habit said without "always": "every time I…", "whenever we…", "each morning I…". */
const EVERY_TIME_RE = /\b(?:every|each) (?:time|day|week|month|morning|evening|year|\w+) (?:I|we)\b|\bwhenever (?:I|we)\b/i;
/** "I used to think…" is a belief of the past, not a deed. */
const USED_TO_THINK_RE = /\bused to (?:think|believe|feel|be)\b/i;

export function deedOf(text: string): Deed {
  if (isQuestion(text)) return null;
  if (behaviourStrength(text) >= 2 || DO_NOT_RE.test(text) || EVERY_TIME_RE.test(text) || PRESENT_DO_RE.test(text)) return 'habit';
  if (DID_RE.test(text) || (USED_TO_RE.test(text) && !USED_TO_THINK_RE.test(text))) return 'did';
  return WILL_DO_RE.test(text) ? 'would' : null;
}

// ---- Reasons, rules and beliefs ----

/** A cause or a consequence: "because", "that's why", "otherwise". */
const CAUSE_RE = /\b(?:because|'cause|so that|that's why|that is why|which is why|the reason|otherwise|which means|that means|as a result)\b/i;
/** A rule or a principle: "you have to", "it's important", "the key is", "it depends". */
const RULE_RE =
  /\b(?:should(?:n't)?|have to|has to|need to|needs to|must|ought to|gotta|got to|important|matters?|the key|the point is|the trick|the secret|the lesson|priorit\w*|trade-?offs?|rather than|instead of|depends|the thing is|it's (?:always |never |really |so |very )?(?:better|best|worth|good|bad|dangerous|hard|easy|crucial|essential|critical))\b/i;
/** A belief: "I think", "I believe", "in my experience". */
const BELIEF_RE =
  /\b(?:I (?:(?:really|actually|just|genuinely|strongly|also|still|do|don't|do not|definitely|honestly|personally|firmly)\s+)*(?:think|believe|feel like|feel that|guess|suspect|am convinced|learned|realized|know that)|I'm (?:convinced|sure)|in my (?:opinion|view|experience)|for me(?=,))\b/i;

export type Reason = 'rule' | 'belief' | 'cause' | null;

/** What kind of reason a sentence gives: a rule or principle, a belief, a cause; null for none (a question gives none). */
export function reasonOf(text: string): Reason {
  if (isQuestion(text)) return null;
  if (RULE_RE.test(text)) return 'rule';
  if (BELIEF_RE.test(text)) return 'belief';
  return CAUSE_RE.test(text) ? 'cause' : null;
}

/**
 * First-person words, singular or plural: a text holding one cannot be reported in the third person
 * without rewriting it ("They think it speaks to our model": whose?).
 */
export const FIRST_PERSON_RE = /\b(?:I|me|my|mine|myself|we|us|our|ours|ourselves)\b|\b(?:I|we)['’]/i;

// ---- Greetings and self-introductions ----

const GREETING_RE =
  /^(?:(?:hi|hello|hey|howdy|greetings|welcome)\b|good (?:morning|afternoon|evening)\b|(?:it's |it is )?(?:great|good|nice|a pleasure|wonderful) to (?:be here|be on|be back|see you|meet you|talk to you)\b)|\b(?:thanks|thank you)(?: all| everyone| everybody| guys| so much| very much)? for (?:having|inviting) (?:me|us)\b|^(?:thanks|thank you)(?: all| everyone| everybody| guys| so much| very much)? for (?:coming|joining|being here|listening|tuning in)\b|\bmy name is\b|^(?:so,? |well,? |yeah,? )?I(?:'m| am) (?:the |a )?(?:co-?founder|founder|ceo|cto|host|author|creator|head|director) of\b/i;
/** "I'm Luke Wroblewski, …", "I am Jane Doe and…": a name (capitalised words) right after "I'm" (case-sensitive). */
const SELF_INTRO_RE = /^(?:(?:So|Well|Yeah|Hi|Hello|Hey),? )?I(?:'m| am) [A-Z][a-z][\w'’-]*(?: [A-Z][a-z][\w'’-]*)?(?:[,.!]| and\b| from\b| at\b| with\b| here\b)/;

/** A greeting, thanks for the invitation or a self-introduction ("Hi, I'm Luke Wroblewski, …"). */
export const isGreeting = (text: string): boolean => GREETING_RE.test(text.trim()) || SELF_INTRO_RE.test(text.trim());

/** A scenario that asks the person to introduce themselves: then a self-introduction answers it. */
export const asksIntroduction = (scenario: string): boolean =>
  /\b(?:introduce (?:yourself|you)|who are you|your name|(?:tell|say) (?:me|us) (?:a (?:bit|little) )?about yourself|what do you do for a living|greet)\b/i.test(scenario);

// ---- Shape ----

export const isQuestion = (text: string): boolean => /\?["”'’)\]]*\s*$/.test(text.trim());

/** True when a text ends where a sentence ends (., !, ?, …, then closing quotes or brackets). */
export const endsSentence = (text: string): boolean => /[.!?…]["”'’)\]]*\s*$/.test(text);

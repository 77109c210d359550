/**
 * The context a capitalised word is said in, as the person detector reads it (people.ts): the
 * way people talk about someone (strong cues, which make even a thing's name a person's: "my
 * colleague Jenkins", "Jenkins told me"; and weak ones, which only make an unknown word one: ("X told me", "my friend X", "thanks to X", "I was pairing with
 * X"), and the way they talk about a thing or a place ("the X", "in X", "using X", "X 2.0", "X's
 * API", "the X cluster").
 */

/** Right after the name: someone who says or tells something, or is someone's (a strong cue). */
const SAID_AFTER =
  /^\s*(?:told|said|says|asked|asks|texted|tweeted|replied|laughed|joked|was telling|was saying|had said|always says|himself|herself|['’]s (?:wife|husband|son|daughter|mom|dad|brother|sister|partner|kids?|family|birthday)\b)/;
/** Right after the name, said of people more than of things (a weak cue: "Jerod was like", "Brendan's blog", "Kwabena and I"). */
const SAID_AFTER_WEAK =
  /^\s*(?:thinks|thought|called|wrote|writes|mentioned|agreed|disagreed|decided|argued|insisted|suggested|explained|promised|apologi[sz]ed|wanted|wants|knew|knows|believed|believes|felt|feels|loved|loves|hated|hates|joined us|, who(?:'s| is| was)\b|and I\b|and me\b|was like|is like|['’]s (?:blog|talk|book|post|article|tweet|newsletter|keynote|idea|point|question|comment|advice|story)\b)/;
/** Right before the name: a relation ("my friend X", a strong cue). */
const SAID_BEFORE =
  /\b(?:my|our|his|her|their) (?:(?:old|new|former|best|first|late|little|big|older|younger|current|good|dear) )?(?:friend|colleague|co-worker|coworker|boss|manager|partner|wife|husband|sister|brother|mom|mum|mother|dad|father|cousin|neighbou?r|cofounder|co-founder|founder|mentor|son|daughter|aunt|uncle|nephew|niece|grandson|granddaughter|grandmother|grandfather|producer|editor|agent|lawyer|attorney|doctor|therapist|teacher|coach|landlord|landlady|assistant|roommate|flatmate|housemate|girlfriend|boyfriend|fianc[ée]e?|ex|kid|child|lead|director|ceo|cto|cfo|investor|client|customer|student|professor|supervisor|advisor|adviser|intern|recruiter|accountant|nurse|dentist|pastor|priest|rabbi|imam|babysitter|nanny|tutor|classmate|teammate|buddy|pal)s?,?\s+$/i;
/** Right before the name: someone met, thanked, worked or talked with (a weak cue: one may work with Kubernetes too). */
const SAID_BEFORE_WEAK =
  /(?:\b(?:I|we) (?:(?:first|finally|never|once|just|also) )?(?:called|asked|told|met|hired|texted|emailed|pinged|messaged|interviewed|thanked|brought|invited|introduced|welcomed)|\b(?:worked|working|talked|talking|spoke|speaking|chatted|chatting|paired|pairing) (?:with|to)|\b(?:thanks|thank you|shout-?out|credit|props|kudos)(?: to)?,?|\bintroduced me to)\s+$/i;

/** How far cues are read: after a name, the longest one (", who's", "was telling") with room; before it, the longest relation ("my former co-founder, "). */
const CUE_AFTER = 32;
const CUE_BEFORE = 40;
/** How far a thing's context is read: before, "deployed " or "install "; after, a version or a thing's word ("'s servers", " documentation"). */
const THING_BEFORE_CHARS = 16;
const THING_AFTER_CHARS = 24;

/** Cue words around a name, right after it or right before it: `strong` ones only, or weak ones too. */
export function cued(text: string, start: number, end: number, strength: 'strong' | 'any' = 'any'): boolean {
  const after = text.slice(end, end + CUE_AFTER);
  const before = text.slice(Math.max(0, start - CUE_BEFORE), start);
  if (SAID_AFTER.test(after) || SAID_BEFORE.test(before)) return true;
  if (strength !== 'any') return false;
  // "the co-founders of Xamarin, who's …": the clause is about the founders.
  if (SAID_AFTER_WEAK.test(after) && !(/^\s*, who/.test(after) && /\bof\s+$/i.test(before))) return true;
  return SAID_BEFORE_WEAK.test(before);
}

/** Right before a single word: a thing's or a place's determiner or preposition ("the Jenkins pipeline", "in Austin", "using Cilium", "my Roth IRA"). */
const THING_BEFORE = /\b(?:the|a|an|this|these|those|my|your|our|their|its|in|on|at|into|onto|via|using|use|uses|used|install|installed|run|running|deploy|deployed|near)\s+$/i;
/** Right after a single word: a version, a thing's part or kind ("Docker 2.0", "Cilium CLI", "Git repo", "Changelog Nightly"). */
const THING_AFTER =
  /^(?:\s+v?\d|\.js\b|-based\b|['’]s (?:API|CLI|SDK|docs|website|servers?|code|repo|stock|app)\b|\s+(?:API|CLI|SDK|apps?|clusters?|servers?|projects?|repos?|repository|librar(?:y|ies)|frameworks?|plugins?|community|ecosystem|compan(?:y|ies)|instances?|images?|containers?|config|files?|docs|documentation|versions?|releases?|engine|platform|services?|stack|codebase|accounts?|Hub|Cloud|Labs|Inc|Corp|Foundation|Conf|Con|Summit|University|College|Street|Avenue|Road|County|City|Bay|Valley|Nightly|Weekly|News|Desktop|Compose|language|runtime|compiler|package|packages|module|modules|users?|developers?|team|teams|folks|world|conference|meetup|podcast|show|episode|newsletter|channel|blog)\b)/;

/** A single capitalised word said as a thing or a place is: after "the", "in", "using" …, or before a version or "API", "CLI" …. */
export function thingContext(text: string, start: number, end: number): boolean {
  return thingBefore(text, start, end) || THING_AFTER.test(text.slice(end, end + THING_AFTER_CHARS));
}
/** The determiner or preposition of a thing or a place right before the words ("The Polycade Sente", "in Austin"), not before a possessive ("in Paul's team"). */
export function thingBefore(text: string, start: number, end: number): boolean {
  return !/^['’]s\b/.test(text.slice(end, end + 3)) && THING_BEFORE.test(text.slice(Math.max(0, start - THING_BEFORE_CHARS), start));
}

/** Whether the word at `start` begins a sentence or a quotation (its capital says nothing about it). */
export function sentenceInitial(text: string, start: number): boolean {
  const window = text.slice(Math.max(0, start - LOOK_BACK), start).trimEnd();
  if (window === '') return start < LOOK_BACK || text.slice(0, start).trim() === '';
  return /(?:[.!?…:"“‘(]|--|—|\s-)$/.test(window);
}
/** Characters read back from a word for the end of the sentence before it. */
const LOOK_BACK = 12;

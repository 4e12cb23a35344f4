/** The kinds of perturbation `--fuzz` applies, one per variant in turn. */
export const PERTURBATIONS = ['typos', 'case', 'whitespace', 'punctuation', 'lookalikes'] as const;
export type Perturbation = (typeof PERTURBATIONS)[number];

type Random = () => number;

/** Latin letters and their Cyrillic or Greek look-alikes: the text reads the same, the bytes differ. */
const LOOKALIKES: Record<string, string> = {
  a: 'а',
  c: 'с',
  e: 'е',
  i: 'і',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
  A: 'А',
  B: 'В',
  C: 'С',
  E: 'Е',
  H: 'Н',
  K: 'К',
  M: 'М',
  O: 'О',
  P: 'Р',
  T: 'Т',
  X: 'Х',
};
const PUNCTUATION = /[.,!?;:'"-]/;

/**
 * One perturbation of `text`, drawn from `random`: the same text, kind and draws always give the
 * same variant. About one word in six is touched (at least one), so the meaning survives: a robust
 * agent should answer the variant as it answers the original.
 */
export function perturb(text: string, kind: Perturbation, random: Random): string {
  switch (kind) {
    case 'typos':
      return mapWords(text, random, typo);
    case 'case':
      return recase(text, random);
    case 'whitespace':
      return whitespace(text, random);
    case 'punctuation':
      return punctuation(text, random);
    case 'lookalikes':
      return mapWords(text, random, (word) => [...word].map((ch) => LOOKALIKES[ch] ?? ch).join(''), hasLookalike);
  }
}

/**
 * Applies `change` to about one word in six (at least one) of the words it can change, leaving every
 * other character as it was.
 */
function mapWords(
  text: string,
  random: Random,
  change: (word: string, random: Random) => string,
  changeable: (word: string) => boolean = () => true,
): string {
  const words = [...text.matchAll(/[\p{L}\p{N}]{2,}/gu)].filter((m) => changeable(m[0]));
  if (!words.length) return text;
  const chosen = new Set(words.filter(() => random() < 1 / 6).map((m) => m.index));
  if (!chosen.size) chosen.add(words[Math.floor(random() * words.length)]!.index);
  let out = '';
  let at = 0;
  for (const match of words) {
    if (!chosen.has(match.index)) continue;
    out += text.slice(at, match.index) + change(match[0], random);
    at = match.index + match[0].length;
  }
  return out + text.slice(at);
}

/** A keyboard slip: two letters swapped, one dropped, or one doubled. */
function typo(word: string, random: Random): string {
  const chars = [...word];
  const i = Math.floor(random() * (chars.length - 1));
  const slip = random();
  if (slip < 1 / 3) [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
  else if (slip < 2 / 3) chars.splice(i + 1, 1);
  else chars.splice(i, 0, chars[i]!);
  const slipped = chars.join('');
  // Swapping two equal letters ("ll") changes nothing: drop one instead.
  return slipped === word ? word.slice(0, i + 1) + word.slice(i + 2) : slipped;
}

function hasLookalike(word: string): boolean {
  return [...word].some((ch) => ch in LOOKALIKES);
}

/**
 * Letter case flipped here and there, or the whole text upper- or lower-cased; when the draw would
 * leave the text as it was (lower-casing a lower-case text), the other case, so the variant is one.
 */
function recase(text: string, random: Random): string {
  const drawn = random() < 0.5 ? flipCase(text, random) : random() < 0.5 ? text.toUpperCase() : text.toLowerCase();
  if (drawn !== text) return drawn;
  const upper = text.toUpperCase();
  return upper !== text ? upper : text.toLowerCase();
}

function flipCase(text: string, random: Random): string {
  return [...text]
    .map((ch) => (random() < 0.3 ? (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()) : ch))
    .join('');
}

/** Spaces doubled or turned into tabs, and blank space around the text. */
function whitespace(text: string, random: Random): string {
  const spaced = text.replace(/ /g, () => (random() < 0.3 ? (random() < 0.5 ? '  ' : '\t') : ' '));
  const changed = spaced === text ? text.replace(' ', '  ') : spaced;
  return `${random() < 0.5 ? '  ' : ''}${changed}${random() < 0.5 ? '\n' : ' '}`;
}

/** Punctuation dropped, or added at the end when there is none to drop. */
function punctuation(text: string, random: Random): string {
  if (PUNCTUATION.test(text)) {
    const dropped = text.replace(new RegExp(PUNCTUATION.source, 'g'), (ch) => (random() < 0.6 ? '' : ch));
    return dropped === text ? text.replace(PUNCTUATION, '') : dropped;
  }
  return `${text}${random() < 0.5 ? '?!' : '...'}`;
}

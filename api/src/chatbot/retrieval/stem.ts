/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), so "repaying", "repayment"
 * and "repaid"-style variants of a word meet in one index term. Words of one or two letters are kept as they are.
 */

const isVowelAt = (word: string, i: number): boolean => {
  const c = word[i];
  if ("aeiou".includes(c)) return true;
  // 'y' is a vowel after a consonant ("happy"), a consonant at the start or after a vowel ("yes", "toy").
  return c === "y" && i > 0 && !isVowelAt(word, i - 1);
};

/** m in [C](VC)^m[V]: the number of vowel-consonant sequences in the stem. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && !isVowelAt(stem, i)) i++;
  while (i < n) {
    while (i < n && isVowelAt(stem, i)) i++;
    if (i >= n) break;
    while (i < n && !isVowelAt(stem, i)) i++;
    m++;
  }
  return m;
}

const hasVowel = (stem: string): boolean => [...stem].some((_, i) => isVowelAt(stem, i));
const endsDoubleConsonant = (w: string): boolean => w.length >= 2 && w[w.length - 1] === w[w.length - 2] && !isVowelAt(w, w.length - 1);
/** consonant-vowel-consonant at the end, the last not w, x or y ("hop", not "snow"). */
const endsCvc = (w: string): boolean => {
  const n = w.length;
  if (n < 3) return false;
  return !isVowelAt(w, n - 3) && isVowelAt(w, n - 2) && !isVowelAt(w, n - 1) && !"wxy".includes(w[n - 1]);
};

function replaceSuffix(word: string, rules: [string, string][], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length);
      return measure(stem) > minMeasure ? stem + replacement : word;
    }
  }
  return word;
}

const STEP2: [string, string][] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];
const STEP3: [string, string][] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];
const STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

export function stem(input: string): string {
  let w = input;
  if (w.length <= 2 || !/^[a-z]+$/.test(w)) return w;

  // Step 1a: plurals.
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);

  // Step 1b: -eed, -ed, -ing.
  let cleanup = false;
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    cleanup = true;
  } else if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3);
    cleanup = true;
  }
  if (cleanup) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (endsDoubleConsonant(w) && !"lsz".includes(w[w.length - 1])) w = w.slice(0, -1);
    else if (measure(w) === 1 && endsCvc(w)) w += "e";
  }

  // Step 1c: y -> i when the stem has a vowel.
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = w.slice(0, -1) + "i";

  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);

  // Step 4: drop a suffix when enough stem remains (-ion only after s or t).
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length);
    if (measure(base) > 1 && (suffix !== "ion" || /[st]$/.test(base))) w = base;
    break;
  }

  // Step 5: a final -e, and -ll to -l.
  if (w.endsWith("e")) {
    const base = w.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsCvc(base))) w = base;
  }
  if (measure(w) > 1 && w.endsWith("ll")) w = w.slice(0, -1);
  return w;
}

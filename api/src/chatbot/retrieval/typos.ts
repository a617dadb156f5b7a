/** Levenshtein distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let beforePrevious: number[] = [];
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      // A swap of two neighbours ("reveiw") counts as one edit.
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, beforePrevious[j - 2] + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known word a misspelt one most likely meant: same first letter, one edit away (two for long words).
 * Short words are left alone: "fee" and "few" are both real.
 */
export function closestKnown(term: string, known: Iterable<string>): string | undefined {
  if (term.length < 5 || /\d/.test(term)) return undefined;
  const max = term.length >= 8 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of known) {
    if (candidate[0] !== term[0] || candidate.length < 3) continue;
    const d = editDistance(term, candidate, max);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= max ? best : undefined;
}

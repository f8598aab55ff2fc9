/**
 * How often +EV opportunities beat the closing line, per confidence bucket, with a 95 % Wilson
 * score interval: the table `docs/opportunities.md` reports for the real recordings. Pure.
 */

/** One opportunity at its first sighting: the confidence it showed then and its no-vig CLV. */
export interface ConfidenceGrade {
  confidence: number;
  clvPercent: number;
}

export interface BucketRow {
  label: string;
  /** Lowest and highest confidence score in the bucket (null when it is empty). */
  min: number | null;
  max: number | null;
  count: number;
  /** How many beat the close: no-vig CLV strictly above 0. */
  beat: number;
  share: number | null;
  low: number | null;
  high: number | null;
}

/**
 * Wilson's score interval for a binomial share (z = 1.96: 95 %): unlike the normal
 * approximation it stays inside [0, 1] and behaves at small counts and shares near 0 or 1.
 */
export function wilsonInterval(successes: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export function bucketRow(label: string, grades: readonly ConfidenceGrade[]): BucketRow {
  const beat = grades.filter((g) => g.clvPercent > 0).length;
  const n = grades.length;
  const scores = grades.map((g) => g.confidence);
  const [low, high] = wilsonInterval(beat, n);
  return {
    label,
    min: n === 0 ? null : Math.min(...scores),
    max: n === 0 ? null : Math.max(...scores),
    count: n,
    beat,
    share: n === 0 ? null : beat / n,
    low: n === 0 ? null : low,
    high: n === 0 ? null : high,
  };
}

/**
 * Thirds by confidence score: the scores are whole numbers with many ties, so the cuts are
 * scores, not ranks (a score never straddles two thirds): bottom is every score at or below the
 * score at the first third's rank, top every score at or above the one at the last third's rank
 * (and above the bottom's), middle the rest. The thirds are then only about equal in size.
 */
export function confidenceThirds(grades: readonly ConfidenceGrade[]): [BucketRow, BucketRow, BucketRow] {
  const scores = grades.map((g) => g.confidence).sort((a, b) => a - b);
  const n = scores.length;
  const lowCut = scores[Math.max(0, Math.ceil(n / 3) - 1)] ?? 0;
  const highCut = Math.max(lowCut + 1, scores[Math.min(n - 1, Math.floor((2 * n) / 3))] ?? 0);
  return [
    bucketRow(
      'bottom third',
      grades.filter((g) => g.confidence <= lowCut),
    ),
    bucketRow(
      'middle third',
      grades.filter((g) => g.confidence > lowCut && g.confidence < highCut),
    ),
    bucketRow(
      'top third',
      grades.filter((g) => g.confidence >= highCut),
    ),
  ];
}

/** Fixed bands of the score: `edges` ascending, each band [edge, next edge). */
export function confidenceBands(grades: readonly ConfidenceGrade[], edges: readonly number[]): BucketRow[] {
  return edges.map((from, i) => {
    const to = edges[i + 1] ?? Number.POSITIVE_INFINITY;
    const label = Number.isFinite(to) ? `${from}-${to - 1}` : `${from}+`;
    return bucketRow(
      label,
      grades.filter((g) => g.confidence >= from && g.confidence < to),
    );
  });
}
